import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { binaryPath, freePort, localServerAvailable, portOpen } from './local-server';

export interface DovecotServer {
  host: string;
  port: number;
  /** Puts a raw mail into a user's folder over IMAP APPEND (as a mail server delivering would). */
  append(user: string, raw: string | Buffer, folder?: string): Promise<void>;
  /** The mails of a folder with their flags, read over IMAP. */
  messages(user: string, folder?: string): Promise<{ uid: number; seen: boolean }[]>;
  /** The server's log so far (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

/** dovecot's path: on PATH, else where Debian puts it (/usr/sbin, not on every user's PATH). */
const dovecotPath = (): string | undefined =>
  binaryPath('dovecot') ?? (existsSync('/usr/sbin/dovecot') ? '/usr/sbin/dovecot' : undefined);

/** Whether the IMAP tests can run: Debian's dovecot-imapd is installed (CI installs it). */
export const dovecotAvailable = (): boolean =>
  dovecotPath() !== undefined ||
  localServerAvailable({
    env: 'TEST_DOVECOT_NEVER_SET',
    binaries: ['dovecot'],
    package: 'dovecot-imapd',
    tests: 'IMAP tests',
  });

/** The unprivileged account dovecot's login and mail processes run as (it refuses root). */
function unprivileged(): { name: string; group: string; uid: number; gid: number } {
  for (const [name, group] of [
    ['nobody', 'nogroup'],
    ['mail', 'mail'],
  ]) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { name, group, uid, gid };
    } catch {
      // try the next one
    }
  }
  throw new Error('no unprivileged user (nobody or mail) for dovecot');
}

/**
 * A private dovecot (Debian's real IMAP server) on a free local port: its own configuration,
 * state and maildirs in a temporary directory, users from a passwd file with plaintext
 * passwords, plaintext login allowed on this loopback listener, no TLS, no system service.
 * Started in the foreground (`-F`) so stopping the child stops it.
 */
export async function startDovecot(
  users: { user: string; password: string }[],
): Promise<DovecotServer> {
  const binary = dovecotPath();
  if (!binary) throw new Error('dovecot not found');
  const account = unprivileged();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dovecot-test-'));
  chmodSync(dir, 0o755);
  const home = path.join(dir, 'home');
  mkdirSync(home);
  chownSync(home, account.uid, account.gid);
  const passwd = path.join(dir, 'passwd');
  writeFileSync(
    passwd,
    users.map(({ user, password }) => `${user}:{PLAIN}${password}::::::\n`).join(''),
  );
  const port = await freePort();
  const logPath = path.join(dir, 'dovecot.log');
  const config = path.join(dir, 'dovecot.conf');
  writeFileSync(
    config,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = dovecot-test-${port}
log_path = ${logPath}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${account.name}
default_internal_group = ${account.group}
default_login_user = ${account.name}
first_valid_uid = 1
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwd}
}
userdb {
  driver = passwd-file
  args = username_format=%u ${passwd}
  default_fields = uid=${account.name} gid=${account.group} home=${home}/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service auth-worker {
  user = ${account.name}
}
`,
  );
  const child: ChildProcess = spawn(binary, ['-F', '-c', config], { stdio: 'ignore' });
  const log = () => {
    try {
      return readFileSync(logPath, 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (await portOpen(port)) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`dovecot did not start:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const password = (user: string) => users.find((entry) => entry.user === user)!.password;
  const withClient = async <T>(user: string, work: (client: ImapFlow) => Promise<T>) => {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      auth: { user, pass: password(user) },
      logger: false,
    });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout();
    }
  };
  return {
    host: '127.0.0.1',
    port,
    async append(user, raw, folder = 'INBOX') {
      await withClient(user, async (client) => {
        if (folder !== 'INBOX') await client.mailboxCreate(folder).catch(() => undefined);
        await client.append(folder, raw);
      });
    },
    async messages(user, folder = 'INBOX') {
      return withClient(user, async (client) => {
        const lock = await client.getMailboxLock(folder);
        try {
          const found: { uid: number; seen: boolean }[] = [];
          for await (const message of client.fetch('1:*', { uid: true, flags: true })) {
            found.push({ uid: message.uid, seen: message.flags?.has('\\Seen') === true });
          }
          return found;
        } catch {
          return [];
        } finally {
          lock.release();
        }
      });
    },
    log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
