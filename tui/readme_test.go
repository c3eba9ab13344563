package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEShowsTheSplitView: the picture of the split view in
// docs/terminal-ui.md (the README's page on the UI) is the golden
// screen's first lines, so it cannot drift from what the UI
// draws.
func TestREADMEShowsTheSplitView(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "docs", "terminal-ui.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "TestGoldenViews", "busy_120x40.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(golden), "\n")[:14] {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	if !strings.Contains(string(readme), "```text\n"+strings.Join(lines, "\n")+"\n```") {
		t.Fatal("docs/terminal-ui.md's split-view picture is not the first 14 lines of busy_120x40.golden; copy them again")
	}
}
