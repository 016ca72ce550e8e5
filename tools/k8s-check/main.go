// k8s-check validates rendered Kubernetes manifests offline, against the
// Kubernetes API's own types: every YAML document on standard input is decoded
// strictly into its k8s.io/api type, so an unknown kind, an unknown or
// duplicated field, or a value of the wrong type is an error. Nothing is
// fetched: the types are compiled in (the k8s.io/api version in go.mod).
// It prints one JSON report on standard output and exits 1 when any
// document failed.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

type report struct {
	Objects []object `json:"objects"`
	Errors  []string `json:"errors"`
}

func main() {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, policyv1.AddToScheme,
		networkingv1.AddToScheme, autoscalingv2.AddToScheme, rbacv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	// EnableStrict: unknown and duplicate fields are errors, not silently dropped.
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(os.Stdin))
	out := report{Objects: []object{}, Errors: []string{}}
	for index := 1; ; index++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("document %d: %v", index, err))
			break
		}
		if empty(string(doc)) {
			continue
		}
		decoded, gvk, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("document %d: %v", index, err))
			continue
		}
		name := ""
		if meta, ok := decoded.(interface{ GetName() string }); ok {
			name = meta.GetName()
		}
		out.Objects = append(out.Objects, object{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: name})
	}
	encoder := json.NewEncoder(os.Stdout)
	encoder.SetIndent("", "  ")
	_ = encoder.Encode(out)
	if len(out.Errors) > 0 {
		os.Exit(1)
	}
}

// empty: a document of comments and blank lines only (helm template writes a "# Source:" line before each).
func empty(doc string) bool {
	for _, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed != "" && !strings.HasPrefix(trimmed, "#") && trimmed != "---" {
			return false
		}
	}
	return true
}
