/* LD_PRELOAD shim for benches/chat.sh: sets TCP_NODELAY on every socket the process accepts
 * (accept / accept4), to show what a server's stream looks like without Nagle's algorithm
 * holding back small writes until the peer's delayed ACK (~40 ms on Linux).
 * Build: cc -O2 -shared -fPIC -o chat_nodelay.so benches/chat_nodelay.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static void nodelay(int fd) {
    if (fd >= 0) {
        int one = 1;
        (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
}

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    static int (*real)(int, struct sockaddr *, socklen_t *, int);
    if (!real) real = (int (*)(int, struct sockaddr *, socklen_t *, int))dlsym(RTLD_NEXT, "accept4");
    int s = real(fd, addr, len, flags);
    nodelay(s);
    return s;
}

int accept(int fd, struct sockaddr *addr, socklen_t *len) {
    static int (*real)(int, struct sockaddr *, socklen_t *);
    if (!real) real = (int (*)(int, struct sockaddr *, socklen_t *))dlsym(RTLD_NEXT, "accept");
    int s = real(fd, addr, len);
    nodelay(s);
    return s;
}
