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

{{/* Every setting: the ConfigMap, then the Secret. */}}
{{- define "dargah.env" -}}
envFrom:
  - configMapRef:
      name: {{ include "dargah.name" . }}-config
  - secretRef:
      name: {{ include "dargah.secretName" . }}
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
The bank simulators a test environment asked for, as a JSON list (read with fromJsonArray): SEP's
(bankSim.enabled) and Mellat's (bankSim.mellat.enabled), one Deployment and Service each, its own
port, terminal and password key in the Secret.
*/}}
{{- define "dargah.bankSims" -}}
{{- $sims := list -}}
{{- if .Values.bankSim.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim" "protocol" "sep" "port" 3100 "terminal" .Values.config.SANDBOX_BANK_TERMINAL_ID "user" "" "passwordKey" "SANDBOX_BANK_PASSWORD") -}}
{{- end -}}
{{- if .Values.bankSim.mellat.enabled -}}
{{- $sims = append $sims (dict "role" "bank-sim-mellat" "protocol" "mellat" "port" 3101 "terminal" .Values.config.SANDBOX_MELLAT_TERMINAL_ID "user" .Values.config.SANDBOX_MELLAT_USERNAME "passwordKey" "SANDBOX_MELLAT_PASSWORD") -}}
{{- end -}}
{{- toJson $sims -}}
{{- end -}}
