/**
 * Temporal keeps a closed workflow's history TEMPORAL_NAMESPACE_RETENTION_DAYS
 * (docs/RETENTION.md#temporal) wherever the gateway runs: the dev server `npm
 * test` started (the launcher set it, as `npm start` does), and the namespaces
 * the deployments create (docker-compose.yml, the Temporal Helm values), which
 * hold the setting's default. A worker says so when its namespace differs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigSchema } from '../../src/config.ts';
import {
  namespaceRetentionDays,
  namespaceRetentionNotice,
  setNamespaceRetention,
} from '../../src/temporal/namespace-retention.ts';
import { compose } from '../support/compose.ts';
import { getHarness } from '../support/harness.ts';

const DEFAULT_DAYS = ConfigSchema.properties.TEMPORAL_NAMESPACE_RETENTION_DAYS.default;

describe('the Temporal namespace retention', () => {
  it('is the configured one on the dev server the launcher started', async () => {
    const h = await getHarness();
    assert.equal(
      await namespaceRetentionDays(h.temporal.connection, h.config.TEMPORAL_NAMESPACE),
      h.config.TEMPORAL_NAMESPACE_RETENTION_DAYS,
    );
    assert.equal(
      await namespaceRetentionNotice(
        h.temporal.connection,
        h.config.TEMPORAL_NAMESPACE,
        h.config.TEMPORAL_NAMESPACE_RETENTION_DAYS,
      ),
      undefined,
    );
  });

  it('a worker on a namespace that keeps histories for another period says so, with the command that sets it', async () => {
    const h = await getHarness();
    const namespace = h.config.TEMPORAL_NAMESPACE;
    const days = h.config.TEMPORAL_NAMESPACE_RETENTION_DAYS;
    await setNamespaceRetention(h.temporal.connection, namespace, days + 2);
    try {
      const notice = await namespaceRetentionNotice(h.temporal.connection, namespace, days);
      assert.match(
        notice ?? '',
        new RegExp(
          `keeps closed workflow histories ${days + 2} day\\(s\\), not TEMPORAL_NAMESPACE_RETENTION_DAYS=${days}`,
        ),
      );
      assert.match(notice ?? '', new RegExp(`--retention ${days * 24}h`));
    } finally {
      await setNamespaceRetention(h.temporal.connection, namespace, days);
    }
  });

  it('docker-compose.yml creates the namespace with the default retention', () => {
    const command = compose.services['temporal-namespace']!.entrypoint!.join(' ');
    assert.match(command, new RegExp(`namespace create --namespace default --retention ${DEFAULT_DAYS * 24}h `));
  });

  it("the Temporal Helm values create it with the default retention, and the gateway's chart says the same", () => {
    const values = parse(readFileSync('deploy/helm/temporal-values.yaml', 'utf8')) as {
      server: { config: { namespaces: { namespace: { name: string; retention: string }[] } } };
    };
    assert.deepEqual(values.server.config.namespaces.namespace, [{ name: 'default', retention: `${DEFAULT_DAYS}d` }]);
    const gateway = parse(readFileSync('deploy/helm/dargah/values.yaml', 'utf8')) as { config: Record<string, string> };
    assert.equal(gateway.config.TEMPORAL_NAMESPACE_RETENTION_DAYS, String(DEFAULT_DAYS));
  });
});
