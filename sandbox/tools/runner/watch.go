package runner

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Watch is `sandbox test --watch`: run the scenarios, then run a scenario
// again whenever its file changes, and all of them when a file under Dirs
// (the add-on's source) changes, until the context ends. Changes are
// found by polling modification times and sizes, which needs nothing
// beyond the standard library and sees every kind of editor's save.
type Watch struct {
	// Files lists the scenario files; it is called at every poll, so a
	// file added to a folder argument is picked up (and run).
	Files func() ([]string, error)
	// Dirs are folders whose every file counts: a change re-runs all.
	Dirs []string
	// Interval is the time between polls (default 500ms).
	Interval time.Duration
	// Run runs and reports the files given, all or those that changed.
	Run func(ctx context.Context, files []string)
	// Failed, when set, hears why Files failed (it is tried again at the
	// next poll).
	Failed func(error)
}

// stamp is what a poll compares: a file's modification time and size.
type stamp struct{ mod, size int64 }

func stampOf(p string) (stamp, bool) {
	st, err := os.Stat(p)
	if err != nil {
		return stamp{}, false
	}
	return stamp{st.ModTime().UnixNano(), st.Size()}, true
}

// Loop runs every file once, then polls until ctx ends.
func (w Watch) Loop(ctx context.Context) error {
	interval := w.Interval
	if interval <= 0 {
		interval = 500 * time.Millisecond
	}
	files, err := w.Files()
	if err != nil {
		return err
	}
	seen, dirs := w.stamps(files), w.dirStamps()
	w.Run(ctx, files)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		files, err := w.Files()
		if err != nil {
			if w.Failed != nil {
				w.Failed(err)
			}
			continue
		}
		now, nowDirs := w.stamps(files), w.dirStamps()
		var changed []string
		if !sameStamps(dirs, nowDirs) {
			changed = files
		} else {
			for _, f := range files {
				if old, ok := seen[f]; !ok || old != now[f] {
					changed = append(changed, f)
				}
			}
		}
		seen, dirs = now, nowDirs
		if len(changed) > 0 && ctx.Err() == nil {
			w.Run(ctx, changed)
		}
	}
}

func (w Watch) stamps(files []string) map[string]stamp {
	out := make(map[string]stamp, len(files))
	for _, f := range files {
		if s, ok := stampOf(f); ok {
			out[f] = s
		}
	}
	return out
}

// dirStamps stamps every file under the watched folders (hidden folders
// such as .git left out).
func (w Watch) dirStamps() map[string]stamp {
	out := map[string]stamp{}
	for _, d := range w.Dirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() {
				if p != d && len(e.Name()) > 1 && e.Name()[0] == '.' {
					return filepath.SkipDir
				}
				return nil
			}
			if s, ok := stampOf(p); ok {
				out[p] = s
			}
			return nil
		})
	}
	return out
}

func sameStamps(a, b map[string]stamp) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
