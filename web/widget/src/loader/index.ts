// Placeholder loader: draws the launcher and toggles the frame. Replaced by the real loader.
const script = document.currentScript as HTMLScriptElement | null;
const key = script?.dataset.widgetKey ?? '';
const base = script ? new URL(script.src).origin : '';
if (key && base) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Open chat';
  document.body.appendChild(button);
  button.addEventListener('click', () => {
    const frame = document.createElement('iframe');
    frame.title = 'Chat';
    frame.src = `${base}/widget/frame.html?widget_key=${encodeURIComponent(key)}`;
    document.body.appendChild(frame);
  });
}
