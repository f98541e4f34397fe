// The gift voucher as a PDF (spec 000 §7 GET /discount/pdf/{id}): the code, its value, what is left, the
// day it is valid until, the recipient and the buyer's message. Drawn with the billing fonts (French
// amounts need U+202F).
import { renderPdfDefinition } from "../billing/pdf.ts";
import { formatEuros } from "../money.ts";
import { formatCode, formatDay } from "./rules.ts";

export interface VoucherPdfInput {
  code: string;
  amount: number;
  remaining: number;
  /** Unix seconds. */
  validUntil: number;
  recipientName: string;
  buyerName: string;
  message: string;
  platformName: string;
  siteUrl: string;
}

const ACCENT = "#1d3557";
const MUTED = "#5f6b7a";

export function renderVoucherPdf(v: VoucherPdfInput): Promise<Uint8Array> {
  return renderPdfDefinition({
    pageSize: "A4",
    pageMargins: [56, 56, 56, 56],
    language: "fr-FR",
    info: { title: "Bon cadeau", author: v.platformName, producer: "pdfmake" },
    defaultStyle: { fontSize: 11, color: "#1f2933", lineHeight: 1.2 },
    content: [
      { text: v.platformName, fontSize: 13, bold: true, color: ACCENT },
      { text: "Bon cadeau", fontSize: 34, bold: true, color: ACCENT, margin: [0, 28, 0, 6] },
      { text: `Pour ${v.recipientName}`, fontSize: 16, margin: [0, 0, 0, 4] },
      { text: `De la part de ${v.buyerName}`, color: MUTED, margin: [0, 0, 0, 18] },
      ...(v.message ? [{ text: v.message, italics: true, margin: [0, 0, 0, 22] }] : []),
      {
        table: {
          widths: ["*", "*"],
          body: [
            [
              { text: "Valeur", color: MUTED, fontSize: 9 },
              { text: "Montant restant", color: MUTED, fontSize: 9 },
            ],
            [
              { text: formatEuros(v.amount), fontSize: 20, bold: true },
              { text: formatEuros(v.remaining), fontSize: 20, bold: true },
            ],
          ],
        },
        layout: "noBorders",
        margin: [0, 0, 0, 18],
      },
      { text: "Code à saisir dans votre panier", color: MUTED, fontSize: 9 },
      { text: formatCode(v.code), fontSize: 24, bold: true, characterSpacing: 2, margin: [0, 4, 0, 18] },
      { text: `Valable jusqu'au ${formatDay(v.validUntil)}`, bold: true, margin: [0, 0, 0, 18] },
      {
        text: [
          "À utiliser sur un atelier cocktail de ",
          { text: v.siteUrl, bold: true },
          " : réservez vos places, saisissez ce code dans votre panier, son montant est déduit au paiement. ",
          "Utilisable en plusieurs fois jusqu'à épuisement du montant ; ni repris ni échangé contre de l'argent.",
        ],
        color: MUTED,
        fontSize: 9,
      },
    ],
  });
}
