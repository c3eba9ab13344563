//go:build !unix && !windows

package addonproc

import (
	"errors"
	"os/exec"
)

// plainTree is for systems with neither process groups nor job objects:
// the add-on's own process only.
type plainTree struct{ cmd *exec.Cmd }

func newTree() tree { return &plainTree{} }

func (p *plainTree) start(cmd *exec.Cmd) error { p.cmd = cmd; return cmd.Start() }
func (p *plainTree) wait() error               { return p.cmd.Wait() }
func (p *plainTree) interrupt() error          { return errors.New("cannot ask a process to end here") }
func (p *plainTree) kill() error               { return p.cmd.Process.Kill() }
func (p *plainTree) release()                  {}
