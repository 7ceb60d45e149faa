import { Base64 } from "js-base64";
export default () => ({
  encoded: Base64.encode("小飼弾 ✓"),
  url: Base64.encodeURI("???>>>"),
  decoded: Base64.decode("5bCP6aO85by+IOKckw=="),
  bytes: Array.from(Base64.toUint8Array("AAECAw==")),
  valid: Base64.isValid("@@"),
});
