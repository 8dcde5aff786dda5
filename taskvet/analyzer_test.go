package taskvet_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/tasktuple/task/taskvet"
)

func TestLostTask(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), taskvet.LostTask, "losttask")
}

func TestAwaitErr(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), taskvet.AwaitErr, "awaiterr")
}

func TestSelfWait(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), taskvet.SelfWait, "selfwait")
}

func TestGroupEscape(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), taskvet.GroupEscape, "groupescape")
}

func TestBadLimit(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), taskvet.BadLimit, "badlimit")
}

func TestErrgroupFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupfix")
}

func TestErrgroupFixLoop(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupfixloop")
}

func TestErrgroupInPlace(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupinplace")
}

func TestErrgroupAllowList(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupallow")
}

func TestErrgroupFixName(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupfixname")
}

func TestErrgroupShapes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupshapes")
}

func TestBadOption(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), taskvet.BadOption, "badoption")
}

func TestErrgroupImport(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupimport")
}

func TestErrgroupImportPlace(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "example.com/app/server", "example.com/gci")
}

func TestErrgroupLongLived(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgrouplonglived")
}

func TestErrgroupFixOneLine(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupfixoneline")
}

// TestErrgroupFixLineDirective: a file whose //line directive maps its
// lines elsewhere (generated code) is edited at its own lines.
func TestErrgroupFixLineDirective(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupfixline")
}

func TestErrgroupFactory(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), taskvet.ErrgroupFix, "errgroupfactory")
}
