// Command rusage runs a command and prints, on its last line of stderr, what
// the whole process tree cost: user and system CPU of the command and of every
// descendant it waited for, and the peak resident set of the largest of them.
// The benchmarks compare chartroom (a Node process and its helm children) with
// peer pipelines this way, both sides measured alike.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rusage <command> [args...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	started := time.Now()
	err := cmd.Run()
	wall := time.Since(started)
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(127)
	}
	var usage syscall.Rusage
	// The command's own usage includes the descendants it waited for.
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &usage); err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(127)
	}
	ms := func(t syscall.Timeval) float64 { return float64(t.Sec)*1e3 + float64(t.Usec)/1e3 }
	fmt.Fprintf(os.Stderr, "\nrusage: user_ms=%.1f sys_ms=%.1f max_rss_kb=%d wall_ms=%.1f exit=%d\n",
		ms(usage.Utime), ms(usage.Stime), usage.Maxrss, float64(wall.Microseconds())/1e3, code)
	os.Exit(code)
}
