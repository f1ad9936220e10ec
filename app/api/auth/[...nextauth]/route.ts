import NextAuth from "next-auth";
import { authOptions } from "@/lib/server/auth/options";

export const dynamic = "force-dynamic";

function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- next-auth 4 types the route handler NextAuth() returns as any
  return NextAuth(authOptions())(req, ctx);
}

export { handler as GET, handler as POST };
