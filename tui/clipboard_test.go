package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOSC52Detection checks which environments get OSC 52 and which the
// file: tmux (which drops it by default), the Linux console, dumb
// terminals; SANDBOX_CLIPBOARD decides over all of them.
func TestOSC52Detection(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, true},
		{map[string]string{"TERM": "screen-256color", "STY": "1234.pts-0"}, true},
		{map[string]string{"TERM": "screen-256color", "TMUX": "/tmp/tmux-1000/default,1,0"}, false},
		{map[string]string{"TERM": "tmux-256color"}, false},
		{map[string]string{"TERM": "linux"}, false},
		{map[string]string{"TERM": "dumb"}, false},
		{map[string]string{}, false},
		{map[string]string{"TERM": "tmux-256color", "TMUX": "x", ClipboardEnv: "osc52"}, true},
		{map[string]string{"TERM": "xterm-256color", ClipboardEnv: "file"}, false},
	}
	for _, tc := range tests {
		got, why := osc52Works(func(k string) string { return tc.env[k] })
		if got != tc.want || (!got && why == "") {
			t.Errorf("%v: %v (%q), want %v", tc.env, got, why, tc.want)
		}
	}
}

// TestCopyFallsBackToAFile copies a call inside tmux: the command lands
// in a new file only the user can read, and the message says where; in a
// terminal with OSC 52 it is the escape sequence instead.
func TestCopyFallsBackToAFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	var term bytes.Buffer
	env := map[string]string{"TERM": "screen-256color", "TMUX": "/tmp/tmux-1000/default,1,0"}
	m, _, _, _ := busyModel(t)
	m.opts.Clipboard = TerminalClipboard(&term, func(k string) string { return env[k] })
	press(m, "up", "y")
	files, _ := filepath.Glob(filepath.Join(dir, "sandbox-curl-*.sh"))
	if len(files) != 1 || term.Len() != 0 {
		t.Fatalf("files %v, terminal got %q", files, term.String())
	}
	raw, _ := os.ReadFile(files[0])
	if want := "#!/bin/sh\n" + curlCommand(m.selectedCall(), m.info.BaseURL) + "\n"; string(raw) != want {
		t.Fatalf("file holds %q, want %q", raw, want)
	}
	if st, _ := os.Stat(files[0]); st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v", st.Mode())
	}
	if !strings.HasPrefix(m.flash, "curl command written to "+files[0]+" (tmux") || !strings.Contains(m.View(), "curl command written to /") {
		t.Fatalf("the message does not say where: %q\n%s", m.flash, m.View())
	}

	env = map[string]string{"TERM": "xterm-256color"}
	m.opts.Clipboard = TerminalClipboard(&term, func(k string) string { return env[k] })
	press(m, "y")
	if !strings.HasPrefix(term.String(), "\x1b]52;c;") || !strings.Contains(m.View(), "copied to the clipboard (OSC 52)") {
		t.Fatalf("terminal got %q\n%s", term.String(), m.View())
	}
}
