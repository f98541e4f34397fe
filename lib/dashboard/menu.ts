// The dashboard side menu: routes flagged visible, per role, each with a label and an icon.
// Later capabilities add their pages here.
import type { UserType } from "../accounts/rules.ts";

export type IconName = "home" | "inbox" | "user" | "users" | "mail" | "logout" | "menu";

export interface DashboardRoute {
  path: string;
  label: string;
  icon: IconName;
  roles: UserType[];
  visible: boolean;
}

export const DASHBOARD_ROUTES: DashboardRoute[] = [
  {
    path: "/dashboard",
    label: "Mon tableau de bord",
    icon: "home",
    roles: ["Admin", "Company", "Customer"],
    visible: true,
  },
  {
    path: "/dashboard/demandes-en-cours",
    label: "Mes demandes de devis en cours",
    icon: "inbox",
    roles: ["Customer", "Company"],
    visible: true,
  },
  {
    path: "/dashboard/admin/utilisateurs",
    label: "Utilisateurs",
    icon: "users",
    roles: ["Admin"],
    visible: true,
  },
  { path: "/dashboard/admin/emails", label: "Emails envoyés", icon: "mail", roles: ["Admin"], visible: true },
  {
    path: "/dashboard/profil",
    label: "Mon profil",
    icon: "user",
    roles: ["Admin", "Company", "Customer"],
    visible: true,
  },
];

export function menuFor(type: UserType): DashboardRoute[] {
  return DASHBOARD_ROUTES.filter((r) => r.visible && r.roles.includes(type));
}

/** Where each role lands after logging in. */
export function homeFor(type: UserType): string {
  return type === "Admin"
    ? "/dashboard/admin/utilisateurs"
    : type === "Company"
    ? "/dashboard"
    : "/dashboard/demandes-en-cours";
}

/** Links of the form /dashboard#/x (spec) map to the server page /dashboard/x. */
export function dashboardPathForHash(hash: string): string | null {
  const match = /^#\/([A-Za-z0-9\-/_]+)$/.exec(hash);
  return match ? `/dashboard/${match[1].replace(/\/+$/, "")}` : null;
}
