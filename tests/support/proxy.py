"""A TCP proxy on loopback that a test can cut and restore: a real outage of a real
dependency (Postgres, S3) between the pipeline and the server. It can also be slow:
every piece of an answer waits `delay_seconds` before it is passed on."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from testkit.seaweed import free_port


class OutageProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._up = threading.Event()
        self._up.set()
        self._connections: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.2)
        self._closed = False
        self.delay_seconds = 0.0
        self.connections_made = 0
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cut(self) -> None:
        """Drop every connection and refuse new ones until `restore`."""
        self._up.clear()
        with self._lock:
            for connection in self._connections:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self._connections.clear()

    def restore(self) -> None:
        self._up.set()

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            if not self._up.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._connections += [client, upstream]
                self.connections_made += 1
            for source, sink, answers in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(
                    target=self._pipe, args=(source, sink, answers), daemon=True
                ).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        try:
            while data := source.recv(65536):
                if answers and self.delay_seconds:
                    time.sleep(self.delay_seconds)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.close()
