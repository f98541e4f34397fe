// Spec links such as /dashboard#/espace-partenaire/deal/12 carry the page in the URL fragment, which
// never reaches the server: this island sends the browser to the server page /dashboard/<path>.
import { useEffect } from "react";
import { dashboardPathForHash } from "../lib/dashboard/menu.ts";

export default function DashboardHashLink() {
  useEffect(() => {
    const follow = () => {
      const target = dashboardPathForHash(globalThis.location.hash);
      if (target) globalThis.location.replace(target);
    };
    follow();
    globalThis.addEventListener("hashchange", follow);
    return () => globalThis.removeEventListener("hashchange", follow);
  }, []);
  return null;
}
