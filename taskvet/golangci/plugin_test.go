package golangci

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
)

func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("taskvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"disable": []any{"errgroupfix"}})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if a.Name == "errgroupfix" {
			t.Errorf("BuildAnalyzers() = %v; want no errgroupfix", as)
		}
	}
	if len(as) != 6 || p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("BuildAnalyzers() = %d analyzers, load mode %q; want 6, %q", len(as), p.GetLoadMode(), register.LoadModeTypesInfo)
	}
	if _, err := newPlugin(map[string]any{"disable": []any{"nosuch"}}); err == nil {
		t.Error(`New(disable: ["nosuch"]) = nil error; want an error`)
	}
	if _, err := newPlugin(nil); err != nil {
		t.Errorf("New(nil) = %v; want no error", err)
	}
}
