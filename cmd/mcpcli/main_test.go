package main

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcpcli": func() {
			ctx, stop := signalContext()
			deps := SystemDeps()
			// Inside tests os.Executable is the test binary; find the
			// mcpcli command testscript put on PATH instead.
			deps.Executable = func() (string, error) { return exec.LookPath("mcpcli") }
			code := Run(ctx, os.Args[1:], deps)
			stop()
			os.Exit(code)
		},
		"testserver": testServerMain,
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
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitport":   cmdWaitPort,
			"checktrace": cmdCheckTrace,
		},
	})
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
