/**
 * A plain host page carrying the install snippet, so an owner can see the widget right after
 * `npm start` (the dashboard links here). Without a usable key it asks for one.
 */
export function demoPage(origin: string, widgetKey: string | undefined): string {
  const key = widgetKey && /^wk_[A-Za-z0-9]{1,64}$/.test(widgetKey) ? widgetKey : undefined;
  const snippet = key
    ? `<script async src="${escapeHtml(origin)}/widget.js" data-widget-key="${key}"></script>`
    : '';
  const body = key
    ? `<p>This page stands in for your website. The chat launcher is in the bottom corner.</p>
  <p>The snippet on this page:</p>
  <pre><code>${escapeHtml(snippet)}</code></pre>`
    : `<form method="get" action="/demo">
    <label for="widget_key">Widget key</label>
    <input id="widget_key" name="widget_key" placeholder="wk_..." required />
    <button type="submit">Show the widget</button>
  </form>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Widget demo</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; color: #1f2933; }
    pre { background: #f3f4f6; padding: 1rem; overflow-x: auto; border-radius: 8px; }
    input { font: inherit; padding: .4rem; margin: 0 .5rem; }
  </style>
</head>
<body>
  <main>
    <h1>Widget demo</h1>
    ${body}
  </main>
  ${snippet}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The demo page's policy: its only script is the loader, its only frame the chat and its only
 * request the loader's check, all to the service's own origin; inline styles for the page's and the launcher's own style elements.
 */
export function demoPolicy(origin: string): string {
  return [
    "default-src 'none'",
    `script-src ${origin}`,
    `frame-src ${origin}`,
    // The loader asks the widget API whether this page may show the chat before drawing it.
    `connect-src ${origin}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
