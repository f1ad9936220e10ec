import { authRoute } from "@/lib/server/auth/auth-route";

export const dynamic = "force-dynamic";

// next-auth behind the body cap (lib/server/auth/auth-route.ts).
export { authRoute as GET, authRoute as POST };
