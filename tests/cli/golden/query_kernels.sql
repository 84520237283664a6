-- Each device op, the call that launched it and the op that made the call.
SELECT k.name, k.stream, c.name AS launched_by, o.name AS op
FROM kernel k
LEFT JOIN slice c ON c.id = k.launch_slice_id
LEFT JOIN slice o ON o.id = k.op_slice_id
ORDER BY k.ts;
