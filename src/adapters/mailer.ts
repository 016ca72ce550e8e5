/**
 * Email to dashboard users (address confirmation) by SMTP with nodemailer,
 * to the server in SMTP_URL. With no SMTP_URL (a developer's machine,
 * `npm start`), each message is printed to standard output instead, never
 * to the log: its links are one-time secrets.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  print: (text: string) => void = (t) => process.stdout.write(t),
): Mailer {
  if (config.SMTP_URL === '') {
    return {
      send(mail) {
        print(
          `\n----- email (no SMTP_URL set) -----\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n-----------------------------------\n`,
        );
        return Promise.resolve();
      },
      close() {},
    };
  }
  // A bounded time for every step, so a dead mail server fails the request instead of hanging it.
  const url = new URL(config.SMTP_URL);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port === '' ? (url.protocol === 'smtps:' ? 465 : 587) : Number(url.port),
    secure: url.protocol === 'smtps:',
    ...(url.username === ''
      ? {}
      : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 10_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Sends without making the request wait for the mail server, so an answer
 * takes the same time whether or not it mails anyone (no account enumeration
 * by timing). A failure is logged with the subject only, never the text: its
 * links are one-time secrets.
 */
export function sendInBackground(mailer: Mailer, mail: Mail, logger: Pick<Logger, 'warn'>): void {
  mailer
    .send(mail)
    .catch((error: unknown) => logger.warn({ err: error, subject: mail.subject }, 'an email could not be sent'));
}
