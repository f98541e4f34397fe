// 'Devenir partenaire', mounted at /devenir-partenaire. Public: no guard.
import { Hono } from "hono";
import { type AppEnv, clientOf, readBody } from "../lib/http/context.ts";
import { addFlash } from "../lib/http/cookies.ts";
import { AppError } from "../lib/errors.ts";
import { submitApplication } from "../lib/partners/actions.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { ApplicationPage } from "../components/partners/ApplicationPage.tsx";

const TITLE = "Devenir partenaire";

export const partnerApplicationRoutes = new Hono<AppEnv>()
  .get("/", (c) => renderSitePage(c, TITLE, <ApplicationPage sent={c.req.query("envoye") === "1"} />))
  .post("/", async (c) => {
    const body = await readBody(c);
    try {
      await submitApplication(c.var.deps, c.var.actor, clientOf(c), body);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "validation") throw error;
      const values = Object.fromEntries(
        Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : ""]),
      );
      return renderSitePage(c, TITLE, <ApplicationPage values={values} errors={error.fields} />, 422);
    }
    await addFlash(c, "success", "Merci ! Votre candidature a bien été envoyée.");
    return c.redirect("/devenir-partenaire?envoye=1", 303);
  });
