// The HTML document around every page. Island bundles are external module scripts (no inline
// script, so the CSP needs no nonce); a page without islands gets no <script> at all.
export interface DocumentProps {
  title: string;
  css: string;
  scripts: string[];
  preloads: string[];
  bodyHtml: string;
  description?: string;
}

export function Document({ title, css, scripts, preloads, bodyHtml, description }: DocumentProps) {
  return (
    <html lang="fr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {description && <meta name="description" content={description} />}
        <link rel="stylesheet" href={css} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {preloads.map((href) => <link key={href} rel="modulepreload" href={href} />)}
        {scripts.map((src) => <script key={src} type="module" src={src} />)}
      </head>
      <body
        class="min-h-screen bg-white text-ink antialiased"
        dangerouslySetInnerHTML={{ __html: bodyHtml }}
      />
    </html>
  );
}
