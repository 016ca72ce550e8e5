/**
 * The merchant's own onboarding steps (docs/DASHBOARD.md#onboarding): the
 * business documents, the gateway request and live mode once approved. Each
 * is an Update of the merchant's onboarding workflow, whose validators judge
 * the order; a step it refuses is shown in the merchant's words.
 */
import { documentStore } from '../adapters/document-store.ts';
import { OnboardingRefused } from '../domain/onboarding.ts';
import { currentDocuments, DocumentsInvalid, submitDocuments } from '../merchants/documents.ts';
import { activateLiveMode, merchantSummary, requestGateway } from '../merchants/onboarding.ts';
import { showDevelopers } from './developer-routes.ts';
import { strings, type Lang } from './i18n.ts';
import { Refusal, type DashboardKit, type SignedInRequest } from './kit.ts';
import { MultipartRefused, readMultipartForm } from './multipart.ts';
import { documentsPage } from './onboarding-views.ts';

/** A step the onboarding workflow refused, in the merchant's words. */
const refusalText = (lang: Lang, error: OnboardingRefused) => strings(lang)[`refusal_${error.code}`];

/** An IBAN as compared for a change: without spaces, in capitals. */
const comparableIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

export function onboardingPages(kit: DashboardKit): void {
  const { router, deps, signedIn, readForm, html, seeOther, audit, csrf, liveAllowed, liveDone } = kit;
  const { config, db, temporal } = deps;
  const onboarding = { db, temporal, config };
  const store = documentStore(config);

  // The merchant's own onboarding steps on this page: the gateway request, and live mode once approved (live keys are made elsewhere).
  const merchantSteps = [
    ['/dashboard/developers/gateway', requestGateway, 'gateway', 'gateway_requested'],
    ['/dashboard/developers/live', activateLiveMode, 'live', 'live_mode_activated'],
  ] as const;
  for (const [path, step, done, recorded] of merchantSteps) {
    router.post(
      path,
      signedIn(async (request) => {
        await readForm(request.ctx);
        try {
          await step(onboarding, request.user.merchantId);
        } catch (error) {
          if (!(error instanceof OnboardingRefused)) throw error;
          await showDevelopers(kit, request, { error: refusalText(request.lang, error) }, 409);
          return;
        }
        await audit(request.ctx, recorded, request.user);
        seeOther(request.ctx, `/dashboard/developers?done=${done}`);
      }),
    );
  }

  const documents = async (
    request: SignedInRequest,
    options: Parameters<typeof documentsPage>[2] & { values?: Parameters<typeof documentsPage>[1]['values'] } = {},
    status = 200,
  ) => {
    const summary = await merchantSummary(db, request.user.merchantId);
    const current = await currentDocuments(db, request.user.merchantId);
    const submitted = current?.submission;
    const values = options.values ?? {
      legal_name: submitted?.legal_name ?? '',
      id_kind: submitted?.id_kind ?? 'person',
      national_id: submitted?.national_id ?? '',
      iban: submitted?.iban ?? '',
    };
    html(
      request.ctx,
      documentsPage(
        request.view('settings'),
        { status: summary.onboarding_status, values, files: current?.files ?? [] },
        options,
      ),
      status,
    );
  };

  router.get(
    '/dashboard/documents',
    signedIn(async (request) => {
      await documents(request, {
        notice: request.ctx.query.done === 'submitted' ? strings(request.lang).documentsSubmittedText : undefined,
      });
    }),
  );

  router.post(
    '/dashboard/documents',
    signedIn(async (request) => {
      let form: Awaited<ReturnType<typeof readMultipartForm>>;
      try {
        form = await readMultipartForm(request.ctx, csrf);
      } catch (error) {
        if (error instanceof MultipartRefused)
          throw new Refusal(error.status, error.status === 403 ? 'forbidden' : 'bad_request');
        throw error;
      }
      const field = (name: string) => (form.fields.get(name) ?? '').slice(0, 1_000);
      // The typed values come back into the form after a refusal; the files must be chosen again (browsers never refill them).
      const values = {
        legal_name: field('legal_name'),
        id_kind: field('id_kind'),
        national_id: field('national_id'),
        iban: field('iban'),
      };
      // Once live money is settled (live mode on), a new IBAN changes where it goes: a recent second factor first.
      // Before that (a resubmission after a rejection) no live money exists to redirect; the first IBAN given is no change.
      const previousIban = (await currentDocuments(db, request.user.merchantId))?.submission.iban;
      const ibanChanged =
        previousIban !== undefined &&
        comparableIban(previousIban) !== comparableIban(values.iban) &&
        (await merchantSummary(db, request.user.merchantId)).live_mode;
      if (ibanChanged && !(await liveAllowed(request, 'settlement_account', '/dashboard/documents'))) return;
      try {
        await submitDocuments({ ...onboarding, store }, request.user.merchantId, values, form.files);
      } catch (error) {
        if (error instanceof DocumentsInvalid) return documents(request, { problems: error.problems, values }, 422);
        if (error instanceof OnboardingRefused)
          return documents(request, { error: refusalText(request.lang, error), values }, 409);
        throw error;
      }
      await audit(request.ctx, 'documents_submitted', request.user);
      if (ibanChanged) await liveDone(request, 'settlement_account', `${previousIban} → ${values.iban}`);
      seeOther(request.ctx, '/dashboard/documents?done=submitted');
    }),
  );
}
