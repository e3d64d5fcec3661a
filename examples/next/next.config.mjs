// A static export (out/), so the test serves it as it serves the other examples; tpkit
// needs no setting here.
export default { output: 'export' };
