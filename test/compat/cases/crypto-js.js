import CryptoJS from "crypto-js";
export default () => {
  const key = CryptoJS.enc.Hex.parse("000102030405060708090a0b0c0d0e0f");
  const iv = CryptoJS.enc.Hex.parse("0f0e0d0c0b0a09080706050403020100");
  const sealed = CryptoJS.AES.encrypt("hello crypto-js", key, { iv }).toString();
  return {
    sha256: CryptoJS.SHA256("abc").toString(),
    md5: CryptoJS.MD5("abc").toString(),
    hmac: CryptoJS.HmacSHA512("message", "key").toString(CryptoJS.enc.Base64),
    sealed,
    opened: CryptoJS.AES.decrypt(sealed, key, { iv }).toString(CryptoJS.enc.Utf8),
    pbkdf2: CryptoJS.PBKDF2("password", "salt", { keySize: 4, iterations: 100 }).toString(),
  };
};
