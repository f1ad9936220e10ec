import { z } from "zod";

export const signInInput = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1024),
});
export type SignInInput = z.infer<typeof signInInput>;
