import { AppError } from "./outcome";

// The one role → permission table. Components and use cases ask `can(roles, permission)`;
// nobody else compares role names.

export const roles = ["ops", "reviewer", "auditor", "admin"] as const;
export type Role = (typeof roles)[number];

const table = {
  "queue:read": ["ops", "reviewer", "admin"],
  /** "Waiting for you": second approvals (reviewers), changes for a second admin (admins), in-doubt refunds (ops). */
  "inbox:read": ["ops", "reviewer", "admin"],
  "proposal:read": ["ops", "reviewer", "admin"],
  "proposal:decide": ["reviewer"],
  "proposal:reprepare": ["ops", "reviewer"],
  /** Staff comments on a proposal (never agents: an agent key is no staff actor and reaches no staff route). */
  "proposal:comment": ["ops", "reviewer", "admin"],
  "executions:read": ["ops", "admin"],
  "executions:reconcile": ["ops"],
  /** Record (and, above four-eyes, confirm) a manual payout: ops pay a manual payment's refund out by hand. */
  "executions:payout": ["ops"],
  /** The whole trail: searches across traces, filters, fingerprints, export, evidence packs. */
  "audit:read": ["auditor", "admin"],
  /** One trace looked up by its exact traceId (the redacted timeline): what the agent did before a decision. */
  "audit:trace": ["ops", "reviewer", "auditor", "admin"],
  "admin:manage": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof table;
export const permissionList = Object.keys(table) as Permission[];

export function can(userRoles: readonly Role[], permission: Permission): boolean {
  const allowed: readonly Role[] = table[permission];
  return userRoles.some((r) => allowed.includes(r));
}

export function isRole(value: unknown): value is Role {
  return (roles as readonly unknown[]).includes(value);
}

/** Dashboard sections and the permission that shows each (navigation is derived, never hard-coded per role). */
export const navigation = [
  { key: "inbox", href: "/inbox", permission: "inbox:read" },
  { key: "queue", href: "/queue", permission: "queue:read" },
  { key: "decided", href: "/decided", permission: "proposal:read" },
  { key: "executions", href: "/executions", permission: "executions:read" },
  { key: "audit", href: "/audit", permission: "audit:read" },
  { key: "admin", href: "/admin", permission: "admin:manage" },
] as const satisfies readonly { key: string; href: string; permission: Permission }[];

export function visibleNavigation(userRoles: readonly Role[]) {
  return navigation.filter((item) => can(userRoles, item.permission));
}

/** Where each role's work is, in the order that wins for a person with several roles (deciding comes first). */
const landing = [
  ["reviewer", "/queue"],
  ["ops", "/executions"],
  ["auditor", "/audit"],
  ["admin", "/admin"],
] as const satisfies readonly (readonly [Role, (typeof navigation)[number]["href"]])[];

/** The page a person lands on after signing in (`/`): their own work, not the first section they may see. */
export function landingPath(userRoles: readonly Role[]): string {
  return (
    landing.find(([role]) => userRoles.includes(role))?.[1] ?? visibleNavigation(userRoles)[0]?.href ?? "/forbidden"
  );
}

/** Throws permission_denied unless one of the roles grants the permission. */
export function assertCan(userRoles: readonly Role[], permission: Permission): void {
  if (!can(userRoles, permission))
    throw new AppError("permission_denied", "Your role does not allow this.", { reason: "role", permission });
}

/** Whether an error is a role refusal from assertCan (recorded as a denied access by the HTTP layer). */
export function isRoleRefusal(
  error: unknown,
): error is AppError & { details: { reason: "role"; permission: Permission; recorded?: boolean } } {
  return error instanceof AppError && error.code === "permission_denied" && error.details?.reason === "role";
}
