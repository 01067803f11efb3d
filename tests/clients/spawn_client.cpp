// SPDX-License-Identifier: MIT
// Test client: a program that starts a second process, as mpirun, torchrun or a DataLoader does.
//
//   spawn_client exec   the parent runs "parent:spawn" around starting a copy of itself (fork + exec
//                       with "child"), which records "child:work" on a thread named "child-main".
//   spawn_client fork   the parent forks without exec; the child records "forked:work" and leaves
//                       through exit(), the parent records "parent:spawn" around waiting for it.
//
//   spawn_client exec-self  exec without fork: the program records "image1:work", waits for the
//                       collector to flush it, and replaces itself with "image2", which records
//                       "image2:work" under the same pid.
//
// Both processes inherit the injection environment, so both must be in the recording.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

void work(const char* name)
{
    nvtxRangePushA(name);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    nvtxRangePop();
}

} // namespace

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "exec";
    if (std::strcmp(mode, "exec-self") == 0) {
        work("image1:work");
        std::this_thread::sleep_for(std::chrono::milliseconds(400)); // flushed: exec runs no exit handler
        char self[4096] = {};
        if (::readlink("/proc/self/exe", self, sizeof(self) - 1) <= 0)
            return 3;
        char* imageArgs[] = { self, const_cast<char*>("image2"), nullptr };
        ::execv(self, imageArgs);
        return 4;
    }
    if (std::strcmp(mode, "image2") == 0) {
        work("image2:work");
        return 0;
    }
    if (std::strcmp(mode, "child") == 0) {
        nvtxNameOsThreadA(static_cast<std::uint32_t>(::syscall(SYS_gettid)), "child-main");
        work("child:work");
        return 0;
    }
    const bool forkOnly = std::strcmp(mode, "fork") == 0;
    nvtxRangePushA("parent:spawn");
    const pid_t pid = ::fork();
    if (pid < 0)
        return 2;
    if (pid == 0) {
        if (forkOnly) {
            work("forked:work");
            std::exit(0);
        }
        char self[4096] = {};
        if (::readlink("/proc/self/exe", self, sizeof(self) - 1) <= 0)
            ::_exit(3);
        char* childArgs[] = { self, const_cast<char*>("child"), nullptr };
        ::execv(self, childArgs);
        ::_exit(4);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    nvtxRangePop();
    return WIFEXITED(status) ? WEXITSTATUS(status) : 5;
}
