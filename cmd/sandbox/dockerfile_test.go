package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dockerInstruction is one instruction of the Dockerfile, continuation
// lines joined.
type dockerInstruction struct{ op, args string }

func readDockerfile(t *testing.T, path string) []dockerInstruction {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []dockerInstruction
	cur := ""
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			cur += strings.TrimSuffix(line, "\\") + " "
			continue
		}
		cur += line
		op, args, _ := strings.Cut(cur, " ")
		out = append(out, dockerInstruction{strings.ToUpper(op), strings.TrimSpace(args)})
		cur = ""
	}
	return out
}

// TestDockerfile checks the image recipe without a Docker engine: two
// stages, a static binary (the build stage's own command is run here and
// its output inspected), a non-root user, port 8080, and `sandbox up`
// headless on every interface with a public URL.
func TestDockerfile(t *testing.T) {
	root := filepath.Join("..", "..")
	ins := readDockerfile(t, filepath.Join(root, "Dockerfile"))
	var froms []string
	last := map[string]string{} // the final stage's instructions
	build := ""
	for _, in := range ins {
		if in.op == "FROM" {
			froms = append(froms, in.args)
			last = map[string]string{}
			continue
		}
		last[in.op] = in.args
		if in.op == "RUN" && strings.Contains(in.args, "go build") {
			build = in.args
		}
	}
	if len(froms) != 2 || !strings.HasSuffix(froms[0], " AS build") {
		t.Fatalf("want a build stage and a run stage, got FROM %q", froms)
	}
	if !strings.Contains(last["COPY"], "--from=build") {
		t.Errorf("the run stage copies %q, not the build stage's binary", last["COPY"])
	}
	if u := last["USER"]; u == "" || strings.HasPrefix(u, "root") || strings.HasPrefix(u, "0") {
		t.Errorf("the image runs as %q; it must not be root", u)
	}
	if last["EXPOSE"] != "8080" {
		t.Errorf("EXPOSE %q, want 8080", last["EXPOSE"])
	}
	if !strings.Contains(last["ENTRYPOINT"], `"/usr/local/bin/sandbox"`) || last["CMD"] != `["up", "--headless", "--addr", "0.0.0.0:8080"]` {
		t.Errorf("the image runs %s %s, want sandbox up --headless --addr 0.0.0.0:8080", last["ENTRYPOINT"], last["CMD"])
	}
	if !regexp.MustCompile(`^SANDBOX_PUBLIC_URL=http://\S+$`).MatchString(last["ENV"]) {
		t.Errorf("ENV %q: the image must set SANDBOX_PUBLIC_URL (--public-url)", last["ENV"])
	}
	if !strings.HasPrefix(build, "CGO_ENABLED=0 go build ") || !strings.Contains(build, "-o /out/sandbox ./cmd/sandbox") {
		t.Fatalf("build command %q", build)
	}

	// Run the build stage's command (output redirected) and inspect the binary.
	out := t.TempDir()
	cmd := exec.Command("sh", "-c", strings.ReplaceAll(build, "/out/", out+"/"))
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "VERSION=v0.0.0-docker")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, msg)
	}
	bin := filepath.Join(out, "sandbox")
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("the binary asks for a dynamic loader: it is not static")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v", libs)
	}
	v, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(v), "sandbox v0.0.0-docker ") {
		t.Errorf("sandbox version: %q, %v (the VERSION build argument must be stamped)", v, err)
	}
}
