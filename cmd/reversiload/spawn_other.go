//go:build !linux

package main

import "syscall"

// spawnAttr gives spawned bots no special attributes: only Linux can tie their life to this
// process's.
func spawnAttr() *syscall.SysProcAttr { return nil }
