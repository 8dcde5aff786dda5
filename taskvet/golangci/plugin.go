// Package golangci registers taskvet's analyzers as a golangci-lint module
// plugin, named "taskvet".
//
// Build a golangci-lint that includes it with golangci-lint custom and a
// .custom-gcl.yml beside your go.mod:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/tasktuple/task/taskvet
//	    import: github.com/tasktuple/task/taskvet/golangci
//	    version: v0.1.0
//
// then enable it in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - taskvet
//	  settings:
//	    custom:
//	      taskvet:
//	        type: module
//	        description: misuse of github.com/tasktuple/task, errgroup migration
//	        settings:
//	          disable: [errgroupfix]  # optional: analyzers to leave out
//
// and run ./custom-gcl run (golangci-lint run --fix applies the errgroup
// migrations). Both files are in this directory as examples.
package golangci

import (
	"fmt"
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/tasktuple/task/taskvet"
)

func init() { register.Plugin("taskvet", New) }

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Disable names analyzers to leave out, as in ["errgroupfix"].
	Disable []string `json:"disable"`
}

type plugin struct{ analyzers []*analysis.Analyzer }

// New makes the plugin from its settings; golangci-lint calls it.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, err
	}
	var p plugin
	for _, a := range taskvet.Analyzers {
		if !slices.Contains(s.Disable, a.Name) {
			p.analyzers = append(p.analyzers, a)
		}
	}
	for _, name := range s.Disable {
		if !slices.ContainsFunc(taskvet.Analyzers, func(a *analysis.Analyzer) bool { return a.Name == name }) {
			return nil, fmt.Errorf("taskvet: disable: no analyzer %q", name)
		}
	}
	return &p, nil
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
