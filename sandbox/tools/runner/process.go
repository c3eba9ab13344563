package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/tools/addonproc"
)

// process is the add-on under test, started by the runner and stopped by
// it (its own process group, signalled by id only).
type process struct{ *addonproc.Process }

// startProcess starts the add-on's command with its placeholders
// expanded, in its folder, with the run's variables in its environment.
func (r *run) startProcess() (*process, error) {
	ad := r.sc.Addon
	argv := make([]string, len(ad.Command))
	for i, a := range ad.Command {
		v, err := r.expand(a)
		if err != nil {
			return nil, fmt.Errorf("addon.command: %w", err)
		}
		argv[i] = v
	}
	// A relative program path is taken from where sandbox test runs
	// (--var EXAMPLE_ADDON=bin/example-addon) when it exists there, else
	// from the command's folder. A scenario file writes it with "/",
	// which Windows takes as a separator too.
	if strings.ContainsAny(argv[0], "/"+string(filepath.Separator)) && !filepath.IsAbs(argv[0]) {
		if abs, err := filepath.Abs(argv[0]); err == nil {
			if _, err := os.Stat(abs); err == nil {
				argv[0] = abs
			}
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if ad.Dir != "" {
		d, err := r.expand(ad.Dir)
		if err != nil {
			return nil, fmt.Errorf("addon.dir: %w", err)
		}
		cmd.Dir = r.rel(d)
	} else if r.sc.File != "" {
		cmd.Dir = r.rel(".")
	}
	env := os.Environ()
	keys := make([]string, 0, len(r.vars))
	for k := range r.vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+r.vars[k])
	}
	envKeys := make([]string, 0, len(ad.Env))
	for k := range ad.Env {
		envKeys = append(envKeys, k)
	}
	sort.Strings(envKeys)
	for _, k := range envKeys {
		v, err := r.expand(ad.Env[k])
		if err != nil {
			return nil, fmt.Errorf("addon.env.%s: %w", k, err)
		}
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	p, err := addonproc.Start(cmd, 0)
	if err != nil {
		return nil, fmt.Errorf("start the add-on %q: %w", argv[0], err)
	}
	return &process{p}, nil
}

// exited returns a non-nil error once the process has ended.
func (p *process) exited() error { return p.Exited() }

// stop asks the add-on to end (SIGTERM to its group) and kills it after
// five seconds.
func (p *process) stop() { p.Stop(5 * time.Second) }

func (p *process) output() string { return p.Output() }
