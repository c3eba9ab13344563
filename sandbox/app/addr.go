package app

// Addr is the address the server listens on, as bound: the real port when
// Config.Addr asked for port 0. `sandbox up` records it so client commands
// find the sandbox (sandbox/app/discover).
func (a *App) Addr() string { return a.listener.Addr().String() }
