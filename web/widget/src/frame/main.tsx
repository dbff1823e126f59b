import { render } from 'preact';

function Frame() {
  return <main aria-label="Chat">Chat</main>;
}

render(<Frame />, document.getElementById('app')!);
