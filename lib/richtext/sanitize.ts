// Rich text from the editor (descriptions, free fields) is sanitised on the server before it is
// stored, with sanitize-html: the spec's tag whitelist plus the attributes style, class, id and data-*
// (spec 001 §5), and CSS filtered property by property. Nothing can run script, load a frame, cover
// the page or fetch from elsewhere than https. Ids are prefixed so that content cannot clobber the
// page's own elements.
import sanitizeHtml from "sanitize-html";
import { EDITOR_FONTS, MAX_FONT_SIZE, MIN_FONT_SIZE } from "./rules.ts";

export const RICH_TEXT_TAGS = [
  "p",
  "br",
  "span",
  "div",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "strike",
  "sub",
  "sup",
  "mark",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "blockquote",
  "pre",
  "code",
  "hr",
  "a",
  "img",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
];

const COLOR = /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.\s,%]+\)|[a-z]{3,20})$/i;
const LENGTH = /^-?\d{1,4}(\.\d{1,3})?(px|em|rem|%)?$/;
const FONT_SIZE = new RegExp(
  `^(${Array.from({ length: MAX_FONT_SIZE - MIN_FONT_SIZE + 1 }, (_, i) => i + MIN_FONT_SIZE).join("|")})px$`,
);
const FONT_FAMILY = new RegExp(
  `^(${EDITOR_FONTS.map((f) => `['"]?${f}['"]?`).join("|")})(\\s*,\\s*(sans-serif|serif|cursive))?$`,
  "i",
);

const STYLES: sanitizeHtml.IOptions["allowedStyles"] = {
  "*": {
    "color": [COLOR],
    "background-color": [COLOR],
    "font-family": [FONT_FAMILY],
    "font-size": [FONT_SIZE],
    "font-weight": [/^(normal|bold|bolder|lighter|[1-9]00)$/],
    "font-style": [/^(normal|italic)$/],
    "text-align": [/^(left|right|center|justify)$/],
    "text-decoration": [/^(none|underline|line-through)$/],
    "line-height": [LENGTH, /^normal$/],
    "margin": [LENGTH],
    "margin-top": [LENGTH],
    "margin-bottom": [LENGTH],
    "margin-left": [LENGTH],
    "margin-right": [LENGTH],
    "padding": [LENGTH],
    "padding-left": [LENGTH],
    "width": [LENGTH],
    "height": [LENGTH],
    "list-style-type": [/^(disc|circle|square|decimal|lower-alpha|upper-alpha|none)$/],
  },
};

/** Utility classes that would let content cover or hide the page around it. */
const LAYOUT_CLASS =
  /(^|:)(-?(fixed|absolute|sticky|relative|inset|top|left|right|bottom|z|translate|scale|hidden|invisible|opacity|pointer-events)\b)/;

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: RICH_TEXT_TAGS,
    allowedAttributes: {
      "*": ["style", "class", "id", "data-*"],
      a: ["href", "target", "rel", "title"],
      img: ["src", "alt", "title", "width", "height"],
      td: ["colspan", "rowspan"],
      th: ["colspan", "rowspan"],
    },
    allowedSchemes: ["https", "mailto", "tel"],
    allowedSchemesByTag: { img: ["https"] },
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
    allowedStyles: STYLES,
    disallowedTagsMode: "discard",
    nonTextTags: [
      "script",
      "style",
      "textarea",
      "option",
      "noscript",
      "iframe",
      "object",
      "embed",
      "template",
    ],
    transformTags: {
      "*": (tagName, attribs) => {
        const next = { ...attribs };
        if (next.id) next.id = next.id.startsWith("rt-") ? next.id : `rt-${next.id}`;
        if (next.class) {
          next.class = next.class.split(/\s+/).filter((c) => c && !LAYOUT_CLASS.test(c)).join(" ");
        }
        if (tagName === "a" && next.href) {
          next.rel = "noopener noreferrer nofollow";
          if (next.target && next.target !== "_blank") delete next.target;
        }
        return { tagName, attribs: next };
      },
    },
  }).trim();
}

/** The text of a rich-text value (for emptiness checks and plain-text views). */
export function richTextToPlain(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, " ").trim();
}
