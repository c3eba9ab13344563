package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
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
// stages, the build stage on the building machine cross-compiling for
// the target's os and architecture (docker buildx's TARGETOS and
// TARGETARCH, so one recipe builds amd64 and arm64 images), a static
// binary (the build stage's own command is run here, for this machine and
// for arm64, and its output inspected), a non-root user, port 8080, and
// `sandbox up` headless on every interface with a public URL.
func TestDockerfile(t *testing.T) {
	root := filepath.Join("..", "..")
	ins := readDockerfile(t, filepath.Join(root, "Dockerfile"))
	var froms []string
	last := map[string]string{} // the final stage's instructions
	build := ""
	buildArgs := map[string]bool{} // the build stage's ARGs
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
		if in.op == "ARG" && len(froms) == 1 {
			for _, a := range strings.Fields(in.args) {
				name, _, _ := strings.Cut(a, "=")
				buildArgs[name] = true
			}
		}
	}
	if len(froms) != 2 || !strings.HasSuffix(froms[0], " AS build") {
		t.Fatalf("want a build stage and a run stage, got FROM %q", froms)
	}
	if !strings.HasPrefix(froms[0], "--platform=$BUILDPLATFORM ") {
		t.Errorf("the build stage %q must run on the building machine (--platform=$BUILDPLATFORM) and cross-compile", froms[0])
	}
	if !buildArgs["TARGETOS"] || !buildArgs["TARGETARCH"] || !strings.Contains(build, "GOOS=${TARGETOS}") || !strings.Contains(build, "GOARCH=${TARGETARCH}") {
		t.Errorf("the build stage must build for TARGETOS/TARGETARCH (ARG and GOOS/GOARCH): ARGs %v, %q", buildArgs, build)
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
	if !strings.HasPrefix(build, "CGO_ENABLED=0 ") || !strings.Contains(build, " go build ") || !strings.Contains(build, "-o /out/sandbox ./cmd/sandbox") {
		t.Fatalf("build command %q", build)
	}

	// Run the build stage's command (output redirected) as buildx would
	// for this machine and for arm64, and inspect the binaries.
	cases := []struct {
		arch    string
		machine elf.Machine
	}{{runtime.GOARCH, 0}, {"arm64", elf.EM_AARCH64}}
	var bin string
	for _, c := range cases {
		out := t.TempDir()
		cmd := exec.Command("sh", "-c", strings.ReplaceAll(build, "/out/", out+"/"))
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "VERSION=v0.0.0-docker", "TARGETOS=linux", "TARGETARCH="+c.arch)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", build, err, msg)
		}
		b := filepath.Join(out, "sandbox")
		f, err := elf.Open(b)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if c.machine != 0 && f.Machine != c.machine {
			t.Errorf("TARGETARCH=%s built for %v", c.arch, f.Machine)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("the %s binary asks for a dynamic loader: it is not static", c.arch)
			}
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			t.Errorf("the %s binary needs shared libraries %v", c.arch, libs)
		}
		if c.arch == runtime.GOARCH {
			bin = b
		}
	}
	v, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(v), "sandbox v0.0.0-docker ") {
		t.Errorf("sandbox version: %q, %v (the VERSION build argument must be stamped)", v, err)
	}
}
