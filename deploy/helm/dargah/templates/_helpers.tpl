{{/* The release's name for every object: <release>-<role>. */}}
{{- define "dargah.name" -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{- define "dargah.labels" -}}
app.kubernetes.io/name: dargah
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The labels a role's pods carry and its selectors match: dargah.selector with (dict "root" $ "role" "api"). */}}
{{- define "dargah.selector" -}}
app.kubernetes.io/name: dargah
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{- define "dargah.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "dargah.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "dargah.name" .)) -}}
{{- end -}}

{{/* The image's user (uid 10001, Dockerfile), never root, on a read-only root file system. */}}
{{- define "dargah.podSecurity" -}}
automountServiceAccountToken: false
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  fsGroup: 10001
  seccompProfile:
    type: RuntimeDefault
{{- end -}}

{{- define "dargah.containerSecurity" -}}
securityContext:
  readOnlyRootFilesystem: true
  allowPrivilegeEscalation: false
  capabilities:
    drop: ["ALL"]
{{- end -}}

{{/* Every non-secret setting: the ConfigMap. The Secret's keys come one at a time (dargah.secretEnv). */}}
{{- define "dargah.env" -}}
envFrom:
  - configMapRef:
      name: {{ include "dargah.name" . }}-config
{{- end -}}

{{/*
The Secret's keys a role uses, and no other (docs/SECURITY.md#what-the-operator-must-do): both the database, the mail
relay and the allowed cards' hash key; the API the pages' CSRF secret, the dashboard's sealing key and the
identity provider's keys (optional);
the worker alone the PSPs' terminal credentials, since only the worker calls a PSP; both the direct debit
provider's merchant id (optional), since both build the provider: the API sends customers to its signing page
and reads their return, the worker debits. What production
mode refuses to start without is required of the Secret; a PSP's credentials are optional (a PSP may
not be configured). dargah.secretEnv with (dict "root" $ "role" "api").
*/}}
{{- define "dargah.secretEnv" -}}
{{- $root := .root -}}
{{- $required := list "DATABASE_URL" "SMTP_URL" "CARD_HASH_KEY" -}}
{{- $optional := list -}}
{{- if eq .role "api" -}}
{{- $required = concat $required (list "PAGES_CSRF_SECRET" "DASHBOARD_SECRETS_KEY") -}}
{{- /* The identity provider's keys: only the API asks it (the refund-claim page), and a mode may have none. */}}
{{- $optional = list "IDENTITY_API_KEY" "IDENTITY_SECRET_KEY" "SANDBOX_IDENTITY_SECRET_KEY" -}}
{{- end -}}
{{- if eq .role "worker" -}}
{{- /* BEGIN generated: psp-worker-secrets (npm run generate:psps) */}}
{{- $optional = list "SANDBOX_SEP_PASSWORD" "SEP_PASSWORD" "SANDBOX_MELLAT_PASSWORD" "MELLAT_PASSWORD" "SANDBOX_ASANPARDAKHT_PASSWORD" "ASANPARDAKHT_PASSWORD" "SANDBOX_PARSIAN_PIN" "PARSIAN_PIN" "SANDBOX_SADAD_KEY" "SADAD_KEY" "SANDBOX_PASARGAD_PASSWORD" "PASARGAD_PASSWORD" "SANDBOX_IRANKISH_PASSWORD" "IRANKISH_PASSWORD" -}}
{{- /* END generated: psp-worker-secrets */}}
{{- end -}}
{{- if or (eq .role "api") (eq .role "worker") -}}
{{- $optional = concat $optional (list "PAYMAN_MERCHANT_ID" "SANDBOX_PAYMAN_MERCHANT_ID") -}}
{{- end -}}
{{- range $required }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "dargah.secretName" $root }}
      key: {{ . }}
{{- end }}
{{- range $optional }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "dargah.secretName" $root }}
      key: {{ . }}
      optional: true
{{- end }}
{{- end -}}

{{/* The image's writable paths (Dockerfile VOLUME): /tmp and /var/lib/dargah. */}}
{{- define "dargah.volumeMounts" -}}
volumeMounts:
  - name: tmp
    mountPath: /tmp
  - name: data
    mountPath: /var/lib/dargah
{{- end -}}

{{- define "dargah.volumes" -}}
volumes:
  - name: tmp
    emptyDir:
      medium: Memory
      sizeLimit: 64Mi
  - name: data
    {{- if and .withDocuments .root.Values.documents.existingClaim }}
    persistentVolumeClaim:
      claimName: {{ .root.Values.documents.existingClaim }}
    {{- else }}
    emptyDir: {}
    {{- end }}
{{- end -}}

{{/*
The bank simulators a test environment asked for, as a JSON list (read with fromJsonArray): one per
PSP of the registry when bankSim.enabled and bankSim.<psp>.enabled, one Deployment and Service each,
its own port, its settings (BANK_SIM_<suffix>) from the ConfigMap's values ("values") and the Secret
("secrets", by key). Written by `npm run generate:psps` from src/psps/profiles.ts.
*/}}
{{- define "dargah.bankSims" -}}
{{- $sims := list -}}
{{- /* BEGIN generated: psp-simulators (npm run generate:psps) */}}
{{- if and .Values.bankSim.enabled .Values.bankSim.sep.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-sep" "protocol" "sep" "port" 3100 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_SEP_TERMINAL_ID"))) "secrets" (list (dict "env" "BANK_SIM_PASSWORD" "key" "SANDBOX_SEP_PASSWORD"))) -}}
{{- end -}}
{{- if and .Values.bankSim.enabled .Values.bankSim.mellat.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-mellat" "protocol" "mellat" "port" 3101 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_MELLAT_TERMINAL_ID")) (dict "env" "BANK_SIM_USERNAME" "value" (index $.Values.config "SANDBOX_MELLAT_USERNAME"))) "secrets" (list (dict "env" "BANK_SIM_PASSWORD" "key" "SANDBOX_MELLAT_PASSWORD"))) -}}
{{- end -}}
{{- if and .Values.bankSim.enabled .Values.bankSim.asanpardakht.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-asanpardakht" "protocol" "asanpardakht" "port" 3102 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_ASANPARDAKHT_TERMINAL_ID")) (dict "env" "BANK_SIM_USERNAME" "value" (index $.Values.config "SANDBOX_ASANPARDAKHT_USERNAME"))) "secrets" (list (dict "env" "BANK_SIM_PASSWORD" "key" "SANDBOX_ASANPARDAKHT_PASSWORD"))) -}}
{{- end -}}
{{- if and .Values.bankSim.enabled .Values.bankSim.parsian.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-parsian" "protocol" "parsian" "port" 3104 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_PARSIAN_TERMINAL_ID"))) "secrets" (list (dict "env" "BANK_SIM_PIN" "key" "SANDBOX_PARSIAN_PIN"))) -}}
{{- end -}}
{{- if and .Values.bankSim.enabled .Values.bankSim.sadad.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-sadad" "protocol" "sadad" "port" 3103 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_SADAD_TERMINAL_ID")) (dict "env" "BANK_SIM_MERCHANT_ID" "value" (index $.Values.config "SANDBOX_SADAD_MERCHANT_ID"))) "secrets" (list (dict "env" "BANK_SIM_KEY" "key" "SANDBOX_SADAD_KEY"))) -}}
{{- end -}}
{{- if and .Values.bankSim.enabled .Values.bankSim.pasargad.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-pasargad" "protocol" "pasargad" "port" 3105 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_PASARGAD_TERMINAL_ID")) (dict "env" "BANK_SIM_USERNAME" "value" (index $.Values.config "SANDBOX_PASARGAD_USERNAME"))) "secrets" (list (dict "env" "BANK_SIM_PASSWORD" "key" "SANDBOX_PASARGAD_PASSWORD"))) -}}
{{- end -}}
{{- if and .Values.bankSim.enabled .Values.bankSim.irankish.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-irankish" "protocol" "irankish" "port" 3106 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_IRANKISH_TERMINAL_ID")) (dict "env" "BANK_SIM_ACCEPTOR_ID" "value" (index $.Values.config "SANDBOX_IRANKISH_ACCEPTOR_ID")) (dict "env" "BANK_SIM_PUBLIC_KEY" "value" (index $.Values.config "SANDBOX_IRANKISH_PUBLIC_KEY"))) "secrets" (list (dict "env" "BANK_SIM_PASSWORD" "key" "SANDBOX_IRANKISH_PASSWORD"))) -}}
{{- end -}}
{{- if and .Values.bankSim.enabled .Values.bankSim.sepehr.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-sepehr" "protocol" "sepehr" "port" 3107 "values" (list (dict "env" "BANK_SIM_TERMINAL_ID" "value" (index $.Values.config "SANDBOX_SEPEHR_TERMINAL_ID"))) "secrets" (list )) -}}
{{- end -}}
{{- /* END generated: psp-simulators */}}
{{- toJson $sims -}}
{{- end -}}
