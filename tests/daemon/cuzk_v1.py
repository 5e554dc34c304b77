"""tests/daemon/cuzk_v1.py — a real gRPC client of cuzk.v1 for the tests:
Debian's python3-grpcio for the transport and python3-protobuf for the
messages, whose classes are built at run time from the descriptor set that
protoc-c writes beside the generated C code (build/src/daemon/grpc/
proving.desc): nothing here is generated or hand-encoded.

    api = CuzkV1(desc_path, "unix:///tmp/x/cuzk.sock")
    resp = api.call("Prove", api.msg("ProveRequest", submit=...), timeout=60)
"""
import grpc
from google.protobuf import descriptor_pb2, descriptor_pool

try:  # protobuf >= 4.22
    from google.protobuf.message_factory import GetMessageClass
except ImportError:  # Debian 12: protobuf 4.21 (3.21.12)
    GetMessageClass = None
    from google.protobuf import message_factory

MAX = 256 << 20  # Curio's limits (lib/cuzk/client.go)

# method -> (request type, response type), as in proving.proto
METHODS = {
    "SubmitProof": ("SubmitProofRequest", "SubmitProofResponse"),
    "AwaitProof": ("AwaitProofRequest", "AwaitProofResponse"),
    "Prove": ("ProveRequest", "ProveResponse"),
    "CancelProof": ("CancelProofRequest", "CancelProofResponse"),
    "GetStatus": ("GetStatusRequest", "GetStatusResponse"),
    "GetMetrics": ("GetMetricsRequest", "GetMetricsResponse"),
    "PreloadSRS": ("PreloadSrsRequest", "PreloadSrsResponse"),
    "EvictSRS": ("EvictSrsRequest", "EvictSrsResponse"),
}


class CuzkV1:
    def __init__(self, desc_path, target):
        fds = descriptor_pb2.FileDescriptorSet.FromString(open(desc_path, "rb").read())
        self.pool = descriptor_pool.DescriptorPool()
        for f in fds.file:
            self.pool.Add(f)
        self.factory = None if GetMessageClass else message_factory.MessageFactory(self.pool)
        self.channel = grpc.insecure_channel(
            target,
            options=[("grpc.max_receive_message_length", MAX), ("grpc.max_send_message_length", MAX)])
        self.full = "cuzk.v1."

    def cls(self, name):
        d = self.pool.FindMessageTypeByName(self.full + name)
        return GetMessageClass(d) if GetMessageClass else self.factory.GetPrototype(d)

    def msg(self, name, **fields):
        return self.cls(name)(**fields)

    def enum(self, name, value):
        """enum("ProofKind", "POREP_SEAL_COMMIT") -> 1"""
        return self.pool.FindEnumTypeByName(self.full + name).values_by_name[value].number

    def call(self, method, request, timeout=None, metadata=None):
        req_t, resp_t = METHODS[method]
        stub = self.channel.unary_unary("/cuzk.v1.ProvingEngine/" + method,
                                        request_serializer=lambda m: m.SerializeToString(),
                                        response_deserializer=self.cls(resp_t).FromString)
        return stub(request, timeout=timeout, metadata=metadata)

    def call_raw(self, method, payload, timeout=None):
        """Send |payload| bytes as the request message (for malformed protobuf)."""
        stub = self.channel.unary_unary("/cuzk.v1.ProvingEngine/" + method,
                                        request_serializer=lambda b: b,
                                        response_deserializer=lambda b: b)
        return stub(payload, timeout=timeout)

    def future(self, method, request, timeout=None):
        req_t, resp_t = METHODS[method]
        stub = self.channel.unary_unary("/cuzk.v1.ProvingEngine/" + method,
                                        request_serializer=lambda m: m.SerializeToString(),
                                        response_deserializer=self.cls(resp_t).FromString)
        return stub.future(request, timeout=timeout)

    def close(self):
        self.channel.close()
