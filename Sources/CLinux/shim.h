#ifndef POKESEARCH_CLINUX_SHIM_H
#define POKESEARCH_CLINUX_SHIM_H
// epoll and eventfd are not part of Glibc's Swift module map.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
