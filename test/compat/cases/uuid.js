import { v4, v5, v7, validate, version, parse, stringify, NIL } from "uuid";
export default () => {
  const random = v4();
  return {
    v5: v5("svc.example", v5.DNS),
    v7bytes: v7({ msecs: 1700000000000, random: new Uint8Array(16).fill(9), seq: 0 }),
    randomValid: validate(random) && version(random) === 4,
    roundTrip: stringify(parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8")),
    nil: NIL,
  };
};
