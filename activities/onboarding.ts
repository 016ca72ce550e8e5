/**
 * The onboarding workflow's side effects (workflows/onboarding.ts): its
 * record on the merchants row and in onboarding_events, the merchant's
 * domains and document submissions, the operator's reminder and the
 * merchant's decision emails. Each is idempotent: a step's write carries its
 * version and changes the row only forward; event ids come from their cause.
 */
import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { latestSubmission, markSubmissionSubmitted } from '../src/db/documents.ts';
import { insertMerchantDomainIfNew } from '../src/db/merchant-domains.ts';
import { confirmedUserEmails, insertOnboardingEventOnce, recordOnboardingStep } from '../src/db/onboarding.ts';
import type { Logger } from '../src/logger.ts';
import type { Mailer } from '../src/adapters/mailer.ts';
import type { DecisionEmail, OnboardingRecord, ReviewReminder } from '../src/domain/onboarding-workflow.ts';

export interface OnboardingActivityDependencies {
  db: Db;
  logger: Logger;
  mailer: Mailer;
  config: Pick<Config, 'REVIEW_REMINDER_HOURS' | 'PUBLIC_BASE_URL'>;
}

export function createOnboardingActivities({ db, logger, mailer, config }: OnboardingActivityDependencies) {
  return {
    /**
     * One step: the merchants row (only if this version is newer) and its event, in one transaction.
     * Approval also makes the reviewed documents' IBAN the one settlements are paid to: the operator
     * approved that account, so money goes nowhere a person has not looked at.
     */
    async recordOnboarding(record: OnboardingRecord): Promise<void> {
      const now = new Date();
      await db.transaction().execute(async (trx) => {
        const reviewed = record.status === 'approved' ? await latestSubmission(trx, record.merchant_id) : undefined;
        await recordOnboardingStep(trx, record, now, reviewed?.iban);
        await insertOnboardingEventOnce(trx, {
          id: `${record.merchant_id}:v${record.version}`,
          merchant_id: record.merchant_id,
          type: record.event,
          status: record.status,
          reason: record.rejection_reason,
          created_at: now,
        });
      });
    },

    /** The merchant's site domain (already normalized by the service); adding it again changes nothing. */
    async recordDomain({ merchant_id, domain }: { merchant_id: string; domain: string }): Promise<void> {
      await insertMerchantDomainIfNew(db, merchant_id, domain, new Date());
    },

    /** Marks the merchant's draft submission as the submitted one; false when there is no such draft (nothing to accept). */
    async recordDocumentsSubmitted({
      merchant_id,
      submission_id,
    }: {
      merchant_id: string;
      submission_id: string;
    }): Promise<boolean> {
      return markSubmissionSubmitted(db, merchant_id, submission_id);
    },

    /** How long a request may wait under review before the operator is reminded: this worker's REVIEW_REMINDER_HOURS. */
    async reviewReminderDelay(): Promise<number> {
      return Math.round(config.REVIEW_REMINDER_HOURS * 3_600_000);
    },

    /** The operator's reminder: a warning in the log and a review_reminder event (once per review round). */
    async raiseReviewReminder(reminder: ReviewReminder): Promise<void> {
      logger.warn(
        {
          event: 'review_reminder',
          merchant_id: reminder.merchant_id,
          review_round: reminder.review_round,
          waited_hours: Number((reminder.waited_ms / 3_600_000).toFixed(3)),
        },
        'a gateway request has been under review longer than REVIEW_REMINDER_HOURS',
      );
      await insertOnboardingEventOnce(db, {
        id: `${reminder.merchant_id}:reminder:${reminder.review_round}`,
        merchant_id: reminder.merchant_id,
        type: 'review_reminder',
        status: 'under_review',
        reason: null,
        created_at: new Date(),
      });
    },

    /** Tells the merchant's users the operator's decision, in Persian and English (their language is not stored). */
    async sendDecisionEmail(email: DecisionEmail): Promise<void> {
      const users = await confirmedUserEmails(db, email.merchant_id);
      const link = `${config.PUBLIC_BASE_URL}/dashboard/developers`;
      const approved = email.decision === 'approved';
      const subject = approved
        ? 'درگاه شما تأیید شد — Your gateway is approved'
        : 'درخواست درگاه شما رد شد — Your gateway request was rejected';
      const text = approved
        ? `درگاه شما تأیید شد. اکنون می‌توانید حالت واقعی را در پیشخوان فعال کنید:\n${link}\n\nYour gateway is approved. You can now activate live mode in the dashboard:\n${link}?lang=en\n`
        : `درخواست درگاه شما رد شد. علت:\n${email.reason ?? ''}\n\nمدارک را اصلاح کنید و دوباره بفرستید:\n${link}\n\nYour gateway request was rejected. The reason:\n${email.reason ?? ''}\n\nFix the documents and resubmit them:\n${link}?lang=en\n`;
      for (const user of users) await mailer.send({ to: user.email, subject, text });
      logger.info(
        { merchant_id: email.merchant_id, decision: email.decision, recipients: users.length },
        'onboarding decision emailed',
      );
    },
  };
}

export type OnboardingActivities = ReturnType<typeof createOnboardingActivities>;
