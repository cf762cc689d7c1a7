#ifndef POKESEARCH_CLINUX_SHIM_H
#define POKESEARCH_CLINUX_SHIM_H
// epoll, signalfd and malloc_trim are not part of Glibc's Swift module map.
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <unistd.h>

// accept4 is declared only under _GNU_SOURCE, which Glibc's Swift module is built without.
static inline int pokesearch_accept4(int fd, int flags) {
    return (int)syscall(SYS_accept4, fd, 0, 0, flags);
}

// struct ucred too is declared only under _GNU_SOURCE; the kernel fixes its layout.
#include <sys/socket.h>
static inline int pokesearch_peer_uid(int fd, unsigned int *uid) {
    struct { int pid; unsigned int uid; unsigned int gid; } credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

// ioctl is variadic, which Swift does not import: the terminal's size through a typed wrapper.
#include <sys/ioctl.h>
static inline int pokesearch_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return -1;
    return size.ws_col;
}
static inline int pokesearch_terminal_rows(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0) return -1;
    return size.ws_row;
}
#endif
