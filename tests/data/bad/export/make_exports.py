#!/usr/bin/env python3
"""Writes the tampered exports of this folder from `byoc export --demo --target byoc-target -o
demo`, run here first. Each keeps every checksum right, so that only the change is wrong."""
import hashlib
import json
import os
import shutil
import struct


def copy(name):
    """A copy of demo whose Relay text is host.txt (no .relay file for the text tests to pick up)."""
    shutil.rmtree(name, ignore_errors=True)
    shutil.copytree("demo", name)
    os.rename(os.path.join(name, "host.relay"), os.path.join(name, "host.txt"))
    manifest = json.load(open(os.path.join(name, "manifest.json")))
    manifest["host_text"] = "host.txt"
    manifest["files"]["host.txt"] = manifest["files"].pop("host.relay")
    save(name, manifest)
    return manifest


def save(name, manifest):
    with open(os.path.join(name, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


def rewrite_params(name, manifest, edit):
    path = os.path.join(name, "params.safetensors")
    data = open(path, "rb").read()
    size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + size])
    edit(header)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    data = struct.pack("<Q", len(text)) + text + data[8 + size:]
    open(path, "wb").write(data)
    manifest["files"]["params.safetensors"] = hashlib.sha256(data).hexdigest()
    save(name, manifest)


m = copy("version0")
m["format_version"] = 0
save("version0", m)

m = copy("signature")
m["inputs"][0]["shape"] = [1, 2, 3]
save("signature", m)

m = copy("overlap")
rewrite_params("overlap", m, lambda h: h["const_1"].update(data_offsets=[0, 4]))

m = copy("misaligned")
rewrite_params("misaligned", m, lambda h: h["const_1"].update(data_offsets=[12, 16]))

m = copy("retyped")
host = open("retyped/host.json").read()
host = host.replace('"dtype":"int32","shape":[]},"kind":"var","name":"iter1"', '"dtype":"float32","shape":[]},"kind":"var","name":"iter1"')
host = host.replace('"name":"iter1","origin":[4],"type":{"dtype":"int32"', '"name":"iter1","origin":[4],"type":{"dtype":"float32"')
open("retyped/host.json", "w").write(host)
m["files"]["host.json"] = hashlib.sha256(host.encode()).hexdigest()
save("retyped", m)

m = copy("link_outside")
os.remove("link_outside/host.txt")
os.symlink("../../../../../../../../../../etc/passwd", "link_outside/host.txt")

m = copy("hidden_compiled")
os.makedirs("hidden_compiled/artifacts/tvmgen_default_byoc_target_main_0")
open("hidden_compiled/artifacts/tvmgen_default_byoc_target_main_0/.hidden", "wb").write(b"hidden")
m["external_functions"][0].update(codegen_version="1", compiled=["artifacts/tvmgen_default_byoc_target_main_0/.hidden"])
m["files"]["artifacts/tvmgen_default_byoc_target_main_0/.hidden"] = hashlib.sha256(b"hidden").hexdigest()
save("hidden_compiled", m)

shutil.rmtree("demo")
