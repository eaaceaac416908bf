package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/internal/nocolorprobe"
	"github.com/mcpcli/mcpcli/transport"
)

func TestMain(m *testing.M) {
	nocolorprobe.Restore()
	if len(os.Args) > 1 && os.Args[1] == transport.SupervisorArg {
		transport.Supervise(os.Args[2:]) // in-process runs use this binary as the supervisor
	}
	testscript.Main(m, map[string]func(){
		"mcpcli": func() {
			deps := SystemDeps()
			ctx, stop := interrupt.Context(deps.Servers)
			// Inside tests os.Executable is the test binary; find the
			// mcpcli command testscript put on PATH instead.
			deps.Executable = func() (string, error) { return exec.LookPath("mcpcli") }
			code := Run(ctx, os.Args[1:], deps)
			stop()
			os.Exit(code)
		},
		"testserver":  testServerMain,
		"lintserver":  lintServerMain,
		"authserver":  authServerMain,
		"testbrowser": testBrowserMain,
	})
}

// TestScripts runs the CLI end to end: testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			port, err := freePort()
			if err != nil {
				return err
			}
			env.Setenv("PORT", strconv.Itoa(port))
			// mcpcli's state (its ledger of the files it wrote, trusted
			// projects, tokens) goes in the script's own directory, never
			// in $HOME (testscript's /no-home, which root can create); a
			// script may name another with env XDG_STATE_HOME=.
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, ".state"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitport":     cmdWaitPort,
			"checktrace":   cmdCheckTrace,
			"subst":        cmdSubst,
			"waitgrep":     cmdWaitGrep,
			"expiretokens": cmdExpireTokens,
			"castmarks":    cmdCastMarks,
			"castout":      cmdCastOut,
			"sent":         cmdSent,
		},
	})
}

// subst FILE...: replace @WORK@ and @PORT@ in each file with $WORK and
// $PORT, for the paths and ports a config file must spell out (a config
// file's own ${VAR} is left for mcpcli to expand).
func cmdSubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: subst FILE...")
	}
	for _, name := range args {
		b, err := os.ReadFile(ts.MkAbs(name))
		ts.Check(err)
		s := strings.NewReplacer("@WORK@", ts.Getenv("WORK"), "@PORT@", ts.Getenv("PORT")).Replace(string(b))
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(s), 0o644))
	}
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitport PORT: wait until something listens on 127.0.0.1:PORT.
func cmdWaitPort(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waitport PORT")
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.Dial("tcp", "127.0.0.1:"+args[0])
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("nothing listens on 127.0.0.1:%s after 15s", args[0])
}
