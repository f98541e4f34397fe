// Rich text from the editor (descriptions, free fields) is sanitised on the server before it is
// stored, and again when it is read (`cleanStoredRichText`: what was stored under older rules is
// shown under today's). sanitize-html keeps the spec's tag whitelist and the attributes style, class,
// id and data-* (spec 001 §5), CSS filtered property by property. What passes can run no script,
// load no frame, request nothing but the app's own media, and leave its own box: no positioning,
// offsets, stacking, transforms or negative spacing, bounded sizes; the page also paints rich text
// inside a contained box (components/richtext/RichTextView.tsx). Ids and classes are prefixed so
// that content can neither clobber the page's elements nor borrow its layout classes, and the
// attributes the app's own scripts read (islands) are dropped.
import sanitizeHtml from "sanitize-html";
import { mediaPathOf } from "../storage/storage.ts";
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

/** A regular expression matching the whole value, case-insensitive. */
const whole = (body: string) => new RegExp(`^(${body})$`, "i");
const DECIMALS = String.raw`(\.\d{1,3})?`;

const COLOR = /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.\s,%]+\)|[a-z]{3,20})$/i;
/** One margin or padding: never negative, at most 199px, 9.999em or 99 % (spacing beyond that only
 * pushes the page's own content out of view). */
const SPACE = String.raw`0|(\d{1,2}|1\d\d)${DECIMALS}px|\d${DECIMALS}r?em|\d{1,2}${DECIMALS}%`;
const MARGIN_ONE = whole(`${SPACE}|auto`);
const MARGIN_ALL = whole(String.raw`(${SPACE}|auto)(\s+(${SPACE}|auto)){0,3}`);
const PADDING_ONE = whole(SPACE);
const PADDING_ALL = whole(String.raw`(${SPACE})(\s+(${SPACE})){0,3}`);
/** A width or height: at most 1200px, 100 % or 69.999em. */
const SIZE = whole(
  String.raw`auto|0|(\d{1,3}|1[01]\d\d|1200)${DECIMALS}px|(\d{1,2}|100)%|[1-6]?\d${DECIMALS}r?em`,
);
/** A line height between half a line and three lines (or up to 199px). */
const LINE_HEIGHT = whole(
  String
    .raw`normal|0\.[5-9]\d{0,2}|[1-3]${DECIMALS}|([1-9]\d?|1\d\d)px|[0-3]${DECIMALS}r?em|([5-9]\d|[12]\d\d|300)%`,
);
const FONT_SIZE = new RegExp(
  `^(${Array.from({ length: MAX_FONT_SIZE - MIN_FONT_SIZE + 1 }, (_, i) => i + MIN_FONT_SIZE).join("|")})px$`,
);
const FONT_FAMILY = new RegExp(
  `^(${EDITOR_FONTS.map((f) => `['"]?${f}['"]?`).join("|")})(\\s*,\\s*(sans-serif|serif|cursive))?$`,
  "i",
);

/** The only CSS properties kept. Anything else (position, z-index, inset, top/left/right/bottom,
 * transform/translate/rotate/scale, float, display, opacity, background images, url(), expression(),
 * @import, calc(), var()…) is dropped, and a value is kept only when it matches whole. */
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
    "line-height": [LINE_HEIGHT],
    "margin": [MARGIN_ALL],
    "margin-top": [MARGIN_ONE],
    "margin-bottom": [MARGIN_ONE],
    "margin-left": [MARGIN_ONE],
    "margin-right": [MARGIN_ONE],
    "padding": [PADDING_ALL],
    "padding-top": [PADDING_ONE],
    "padding-bottom": [PADDING_ONE],
    "padding-left": [PADDING_ONE],
    "padding-right": [PADDING_ONE],
    "width": [SIZE],
    "height": [SIZE],
    "list-style-type": [/^(disc|circle|square|decimal|lower-alpha|upper-alpha|none)$/],
  },
};

/** Links lead to a web page or an email address, nothing else (no page of this site, no script). */
const LINK = /^(https?:\/\/|mailto:)/i;
/** Image sizes given as attributes: a number of pixels, at most 1200. */
const IMAGE_SIZE = /^(\d{1,3}|1[01]\d\d|1200)$/;
/** Attributes the app's own scripts act on: an island mounts wherever `data-island` is found. */
const RESERVED_DATA = new Set(["data-island", "data-props", "data-testid"]);
const PREFIX = "rt-";
const prefixed = (name: string) => (name.startsWith(PREFIX) ? name : `${PREFIX}${name}`);

/** An image from the app's own media: `/media/<path>` exactly as lib/storage serves it. Any other
 * source (another site, `//host`, `data:`, a page of this site such as /logout, traversal, a query)
 * would make every reader's browser send a request the author chose. */
export const isOwnMediaSrc = (src: string | undefined): boolean => !!src && mediaPathOf(src) !== null;

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
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: [] },
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
        const next: sanitizeHtml.Attributes = {};
        for (const [name, value] of Object.entries(attribs)) {
          if (!RESERVED_DATA.has(name.toLowerCase())) next[name] = value;
        }
        if (next.id) next.id = prefixed(next.id);
        if (next.class) next.class = next.class.split(/\s+/).filter(Boolean).map(prefixed).join(" ");
        if (tagName === "a") {
          if (next.href !== undefined && !LINK.test(next.href)) delete next.href;
          if (next.href !== undefined) next.rel = "noopener noreferrer nofollow";
          else delete next.rel;
          if (next.target !== "_blank") delete next.target;
        }
        if (tagName === "img") {
          for (const size of ["width", "height"]) {
            if (next[size] !== undefined && !IMAGE_SIZE.test(next[size])) delete next[size];
          }
        }
        return { tagName, attribs: next };
      },
    },
    // Images are removed whole, not left without a source, when the source is not the app's media.
    exclusiveFilter: (frame) => frame.tag === "img" && !isOwnMediaSrc(frame.attribs.src),
  }).trim();
}

// Stored rich text is sanitised again each time it is read, under today's rules: content stored before
// a rule existed (a negative margin, an image of /logout) never reaches a page or an API answer. The
// sanitiser is pure, so the answer for a given text is remembered (least recently used first out,
// bounded in characters): the quote page, read far more often than written, pays once per text.
const remembered = new Map<string, string>();
let rememberedChars = 0;
const MAX_REMEMBERED_CHARS = 4_000_000;

/** `html` as stored, sanitised again for display (see above). */
export function cleanStoredRichText(html: string): string {
  if (!html) return html;
  const known = remembered.get(html);
  if (known !== undefined) {
    remembered.delete(html);
    remembered.set(html, known);
    return known;
  }
  const clean = sanitizeRichText(html);
  const size = html.length + clean.length;
  if (size <= MAX_REMEMBERED_CHARS / 10) {
    remembered.set(html, clean);
    rememberedChars += size;
    for (const [key, value] of remembered) {
      if (rememberedChars <= MAX_REMEMBERED_CHARS) break;
      remembered.delete(key);
      rememberedChars -= key.length + value.length;
    }
  }
  return clean;
}

/** The text of a rich-text value (for emptiness checks and plain-text views). */
export function richTextToPlain(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, " ").trim();
}
