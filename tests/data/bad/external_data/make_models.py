#!/usr/bin/env python3
"""Writes the ONNX models of this folder: y = x + w, where the initializer w (4 floats) is external
data whose location, offset and length each case sets. Plain protobuf encoding, no onnx package."""


def varint(value):
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field(number, value):
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    if isinstance(value, str):
        value = value.encode()
    return varint(number << 3 | 2) + varint(len(value)) + value


def tensor_type(dims):
    shape = b"".join(field(1, field(1, d)) for d in dims)
    return field(1, field(1, 1) + field(2, shape))  # TypeProto.tensor_type: FLOAT, shape


def model(external):
    w = field(1, 4) + field(2, 1) + field(8, "w")  # dims, FLOAT, name
    for key, value in external:
        w += field(13, field(1, key) + field(2, value))
    w += field(14, 1)  # data_location = EXTERNAL
    node = field(1, "x") + field(1, "w") + field(2, "y") + field(3, "add") + field(4, "Add")
    graph = field(1, node) + field(2, "g") + field(5, w)
    graph += field(11, field(1, "x") + field(2, tensor_type([4])))
    graph += field(12, field(1, "y"))
    return field(1, 8) + field(7, graph) + field(8, field(1, "") + field(2, 13))


CASES = {
    "absolute_location": [("location", "/etc/passwd")],
    "parent_location": [("location", "../../../../../../../../etc/passwd")],
    "directory_location": [("location", "weights")],
    "link_outside": [("location", "passwd_link.bin")],
    "range_overflow": [("location", "weights/w.bin"), ("offset", "9223372036854775807"), ("length", "16")],
    "negative_offset": [("location", "weights/w.bin"), ("offset", "-8")],
}

if __name__ == "__main__":
    for name, external in CASES.items():
        with open(name + ".onnx", "wb") as f:
            f.write(model(external))
