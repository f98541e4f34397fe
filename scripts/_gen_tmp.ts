import { facturXml } from "../lib/billing/facturx.ts";
import * as f from "../lib/billing/fixtures_test.ts";
const docs: Record<string, () => any> = { final: () => f.finalDoc(), deposit: () => f.depositDoc(), credit: () => f.creditNoteDoc(), ca: () => f.commissionCreditNoteDoc(), undated: () => f.depositDoc(f.quote({serviceDate:null}), f.SELLER, f.PRIVATE_BUYER) };
console.log(await facturXml(docs[Deno.args[0]]()));
