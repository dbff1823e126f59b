// The launcher's CSS, inside its shadow root. `all: initial` on the host keeps the page's
// inherited styles (font, colour, line height) out as well.
export const LOADER_STYLE = `:host{all:initial}
.w{position:fixed;z-index:2147483000;bottom:20px;right:20px;display:flex;flex-direction:column;align-items:flex-end;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.w.left{right:auto;left:20px;align-items:flex-start}
button{all:initial;box-sizing:border-box;display:flex;align-items:center;justify-content:center;gap:8px;height:56px;min-width:56px;padding:0 16px;border-radius:28px;background:var(--c,#2563eb);color:var(--oc,#fff);cursor:pointer;box-shadow:0 6px 20px rgba(15,23,42,.28);font:600 15px/1 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;transition:transform .15s}
button:hover{transform:scale(1.04)}
button:focus-visible{outline:3px solid #0f172a;outline-offset:3px}
.i{display:flex}
.i,.l{pointer-events:none}
.l:empty,.open .l{display:none}
.f{position:absolute;bottom:72px;right:0;width:380px;height:min(640px,calc(100vh - 110px));border-radius:16px;overflow:hidden;box-shadow:0 12px 40px rgba(15,23,42,.3);background:#fff}
.left .f{right:auto;left:0}
.f[hidden]{display:block;visibility:hidden;pointer-events:none;width:0;height:0;box-shadow:none}
iframe{border:0;width:100%;height:100%;display:block;color-scheme:normal}
.b{position:absolute;top:-6px;right:-6px;min-width:22px;height:22px;padding:0 6px;box-sizing:border-box;border-radius:11px;background:#dc2626;color:#fff;font:700 12px/22px system-ui,sans-serif;text-align:center;pointer-events:none}
.left .b{right:auto;left:40px}
.b:empty{display:none}
@media (max-width:480px),(max-device-width:480px){.w.open .f{position:fixed;inset:0;width:100vw;height:100%;border-radius:0}.w.open>button{display:none}}`;
