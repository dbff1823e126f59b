/**
 * Telling an agent something happened while they look elsewhere: a short generated chime (Web
 * Audio, no file to fetch or fail), a browser notification when the tab is hidden, and a count
 * in the tab title.
 */
let audio: AudioContext | undefined;
let pending = 0;
let baseTitle = '';

/** Browsers let audio start only after a gesture: the first click or key unlocks it. */
export function unlockSound(): void {
  const unlock = () => {
    audio ??= new AudioContext();
    void audio.resume();
  };
  window.addEventListener('pointerdown', unlock, { once: true });
  window.addEventListener('keydown', unlock, { once: true });
}

export function chime(): void {
  if (!audio || audio.state !== 'running') return;
  const now = audio.currentTime;
  for (const [offset, frequency] of [
    [0, 880],
    [0.12, 1320],
  ] as const) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + offset);
    gain.gain.exponentialRampToValueAtTime(0.2, now + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.25);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now + offset);
    oscillator.stop(now + offset + 0.3);
  }
}

export function askNotificationPermission(): void {
  if ('Notification' in window && Notification.permission === 'default') {
    void Notification.requestPermission();
  }
}

export function browserNotification(title: string, body: string, onClick: () => void): void {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  if (!document.hidden) return;
  const notification = new Notification(title, { body, tag: title });
  notification.onclick = () => {
    window.focus();
    onClick();
    notification.close();
  };
}

/** What waits for the agent, by where it waits: unread chats and new or changed tickets. */
const counts = { chats: 0, tickets: 0 };

/** The tab title: `(3) Support Chat` while three things wait for the agent. */
export function setTitleCount(count: number, source: keyof typeof counts = 'chats'): void {
  if (!baseTitle) baseTitle = document.title.replace(/^\(\d+\)\s*/, '');
  counts[source] = count;
  pending = counts.chats + counts.tickets;
  document.title = pending > 0 ? `(${pending}) ${baseTitle}` : baseTitle;
}
