// The dashboard side menu: routes flagged visible, per role, each with a label and an icon.
// Later capabilities add their pages here.
import type { UserType } from "../accounts/rules.ts";

export type IconName =
  | "home"
  | "inbox"
  | "user"
  | "users"
  | "mail"
  | "logout"
  | "menu"
  | "quote"
  | "grid"
  | "cocktail"
  | "logs";

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
    roles: ["Customer"],
    visible: true,
  },
  // A customer's quotes and payments (routes/customer_pages.tsx).
  {
    path: "/dashboard/client/devis",
    label: "Mes devis",
    icon: "quote",
    roles: ["Customer"],
    visible: true,
  },
  // A customer's workshop registrations (routes/customer_sessions.tsx).
  {
    path: "/dashboard/client/sessions",
    label: "Vos sessions",
    icon: "cocktail",
    roles: ["Customer"],
    visible: true,
  },
  // A customer's gift vouchers, bought and received (routes/vouchers.tsx).
  {
    path: "/dashboard/client/bons-cadeaux",
    label: "Vos bons cadeaux",
    icon: "quote",
    roles: ["Customer"],
    visible: true,
  },
  {
    path: "/dashboard/client/reglements",
    label: "Vos règlements de devis",
    icon: "quote",
    roles: ["Customer"],
    visible: true,
  },
  // A partner's pages (routes/partner_pages.tsx).
  {
    path: "/dashboard/partenaire/devis",
    label: "Mes devis",
    icon: "quote",
    roles: ["Company"],
    visible: true,
  },
  {
    path: "/dashboard/partenaire/grille-tarifaire",
    label: "Ma grille tarifaire",
    icon: "grid",
    roles: ["Company"],
    visible: true,
  },
  {
    path: "/dashboard/partenaire/cocktails",
    label: "Mes cocktails",
    icon: "cocktail",
    roles: ["Company"],
    visible: true,
  },
  // The admin's pages (routes/admin.tsx, routes/admin_deals.tsx).
  { path: "/dashboard/admin/devis", label: "Devis", icon: "quote", roles: ["Admin"], visible: true },
  {
    path: "/dashboard/admin/utilisateurs",
    label: "Utilisateurs",
    icon: "users",
    roles: ["Admin"],
    visible: true,
  },
  // The cocktail workshops: sessions, dates, holds and registrations (routes/admin_sessions.tsx).
  {
    path: "/dashboard/admin/ateliers",
    label: "Ateliers cocktails",
    icon: "cocktail",
    roles: ["Admin"],
    visible: true,
  },
  { path: "/dashboard/admin/emails", label: "Emails envoyés", icon: "mail", roles: ["Admin"], visible: true },
  // The reminder policy's scheduled emails (routes/admin_cron.tsx).
  {
    path: "/dashboard/admin/cron",
    label: "Emails programmés",
    icon: "mail",
    roles: ["Admin"],
    visible: true,
  },
  // The 'Devenir partenaire' applications (routes/admin.tsx).
  {
    path: "/dashboard/admin/candidatures",
    label: "Candidatures partenaires",
    icon: "inbox",
    roles: ["Admin"],
    visible: true,
  },
  // 'Gestion des Logs' (routes/admin_logs.tsx).
  { path: "/dashboard/admin/logs", label: "Logs", icon: "logs", roles: ["Admin"], visible: true },
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

/** Where each role lands after logging in. A partner lands on 'Mon tableau de bord', the page every
 * role shares; its quotes are the next entry of its menu. */
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
