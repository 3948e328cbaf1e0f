"""Quality measured: golden sets, retrieval and answering evals (ObliQA, our own sets), the
end-to-end eval with its judge, citation correctness, personas, calibration sweeps and the
committed baselines. May import everything; nothing imports it."""
