import { z } from "zod";
export default () => {
  const User = z.object({
    name: z.string().min(2),
    age: z.number().int().positive(),
    email: z.email(),
    tags: z.array(z.string()).max(2),
  });
  const good = User.safeParse({ name: "Ada", age: 36, email: "ada@example.com", tags: ["x"] });
  const bad = User.safeParse({ name: "A", age: -1.5, email: "nope", tags: ["a", "b", "c"] });
  return {
    good: good.data,
    issues: bad.error.issues.map((i) => [i.path.join("."), i.code, i.message]),
    json: z.toJSONSchema(User),
  };
};
