//go:build windows

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"
)

// Windows has no process groups that signals reach; a job object is the
// unit instead. Every process the server starts joins its job, and the job
// is created with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: when the agent's
// handle closes — in release, or because the agent died, however — the
// kernel terminates every process still in it. golang.org/x/sys/windows is
// not a dependency of this module, so the few calls are made through
// kernel32 directly.

var (
	kernel32                      = syscall.NewLazyDLL("kernel32.dll")
	procCreateJobObjectW          = kernel32.NewProc("CreateJobObjectW")
	procSetInformationJobObject   = kernel32.NewProc("SetInformationJobObject")
	procAssignProcessToJobObject  = kernel32.NewProc("AssignProcessToJobObject")
	procTerminateJobObject        = kernel32.NewProc("TerminateJobObject")
	procQueryInformationJobObject = kernel32.NewProc("QueryInformationJobObject")
)

// Values from winnt.h.
const (
	jobObjectBasicAccountingInformation = 1
	jobObjectExtendedLimitInformation   = 9
	jobObjectLimitKillOnJobClose        = 0x2000
	processSetQuota                     = 0x0100
	processTerminate                    = 0x0001
)

// jobBasicLimitInformation is JOBOBJECT_BASIC_LIMIT_INFORMATION; Go lays
// the fields out with C's natural alignment.
type jobBasicLimitInformation struct {
	PerProcessUserTimeLimit int64
	PerJobUserTimeLimit     int64
	LimitFlags              uint32
	MinimumWorkingSetSize   uintptr
	MaximumWorkingSetSize   uintptr
	ActiveProcessLimit      uint32
	Affinity                uintptr
	PriorityClass           uint32
	SchedulingClass         uint32
}

// jobExtendedLimitInformation is JOBOBJECT_EXTENDED_LIMIT_INFORMATION.
type jobExtendedLimitInformation struct {
	BasicLimitInformation jobBasicLimitInformation
	IoInfo                [6]uint64 // IO_COUNTERS
	ProcessMemoryLimit    uintptr
	JobMemoryLimit        uintptr
	PeakProcessMemoryUsed uintptr
	PeakJobMemoryUsed     uintptr
}

// jobBasicAccountingInformation is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobBasicAccountingInformation struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// owner is a server's job object.
type owner struct {
	job  syscall.Handle
	once sync.Once
}

func command(c Command) (*exec.Cmd, *owner, error) {
	job, err := newKillOnCloseJob()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(c.Path, c.Args...)
	// Its own console process group, so a Ctrl+C meant for the agent's
	// console is not delivered to servers directly.
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
	return cmd, &owner{job: job}, nil
}

func newKillOnCloseJob() (syscall.Handle, error) {
	r, _, err := procCreateJobObjectW.Call(0, 0)
	if r == 0 {
		return 0, fmt.Errorf("CreateJobObject: %w", err)
	}
	job := syscall.Handle(r)
	var info jobExtendedLimitInformation
	info.BasicLimitInformation.LimitFlags = jobObjectLimitKillOnJobClose
	r, _, err = procSetInformationJobObject.Call(uintptr(job), jobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), unsafe.Sizeof(info))
	if r == 0 {
		syscall.CloseHandle(job)
		return 0, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	return job, nil
}

// started puts the server in the job. Its children inherit the job from
// then on. A process the server spawned in the instant between its start
// and this call would escape; creating it suspended would close that gap
// but needs the primary thread handle, which os/exec does not expose.
func (o *owner) started(cmd *exec.Cmd) error {
	h, err := syscall.OpenProcess(processSetQuota|processTerminate, false, uint32(cmd.Process.Pid))
	if err != nil {
		return fmt.Errorf("OpenProcess: %w", err)
	}
	defer syscall.CloseHandle(h)
	r, _, err := procAssignProcessToJobObject.Call(uintptr(o.job), uintptr(h))
	if r == 0 {
		return fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	return nil
}

// terminate has no gentler form on Windows than ending the job: console
// servers get no SIGTERM. Stop's stdin close is the polite request.
func (o *owner) terminate() { o.kill() }

func (o *owner) kill() {
	_, _, _ = procTerminateJobObject.Call(uintptr(o.job), 1)
}

// alive reports whether any process of the job is still running.
func (o *owner) alive() bool {
	var info jobBasicAccountingInformation
	r, _, _ := procQueryInformationJobObject.Call(uintptr(o.job), jobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), unsafe.Sizeof(info), 0)
	return r != 0 && info.ActiveProcesses > 0
}

// release closes the job handle; KILL_ON_JOB_CLOSE ends whatever is left.
// withoutCgroup: a job object has no fallback to retry with.
func (o *owner) withoutCgroup(Command) *exec.Cmd { return nil }

func (o *owner) release() {
	o.once.Do(func() { _ = syscall.CloseHandle(o.job) })
}

// growPipe is a no-op: Windows pipe buffers are set at creation.
func growPipe(*os.File) {}
