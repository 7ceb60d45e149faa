import { nanoid, customAlphabet } from "nanoid";
export default () => {
  const id = nanoid();
  const hex = customAlphabet("0123456789abcdef", 12)();
  return { length: id.length, urlSafe: /^[A-Za-z0-9_-]+$/.test(id), hex: /^[0-9a-f]{12}$/.test(hex) };
};
